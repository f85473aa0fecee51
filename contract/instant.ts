import * as z from 'zod/mini';

/** An instant as the API answers it. */
export const timestamp = () =>
  z
    .string()
    .check(
      z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      z.describe('ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z'),
    );
