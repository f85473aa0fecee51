import type * as z from 'zod/mini';

/**
 * Whether a body schema takes no body at all: a request may then send neither a body nor a content
 * type. A module of its own that loads nothing, so that the route middleware can import it without
 * loading zod before a function's first request (the bench's cold load).
 */
export const bodyIsOptional = (body: z.ZodMiniType): boolean => body.safeParse(undefined).success;
