import * as z from 'zod/mini';
import { ErrorText } from './errors';
import { SHARE_ID_PATTERN } from './identifiers';
import { timestamp } from './schemas';

/** What the routes of shares have in common: the share's id in the path, and a share as lists show it. */

/** The path parameters of a route about one share. */
export const shareParams = () =>
  z.object({ id: z.string().check(z.regex(SHARE_ID_PATTERN), z.describe('Id of a share (`shr_` + 22 base62)')) });

/** The 404 a malformed share id answers: the same as an unknown share's, so an id tells nothing. */
export const SHARE_PARAM_ERRORS = { id: ErrorText.shareNotFound } as const;

const buildShare = () =>
  z
    .object({
      id: z.string(),
      expiresAt: timestamp(),
      maxViews: z.int(),
      viewsLeft: z.int(),
      recipients: z.nullable(
        z.array(z.string()).check(z.describe('The only people who may reveal it; null: anyone signed in')),
      ),
    })
    .check(z.meta({ id: 'Share' }), z.describe('A share as its creator sees it: its limits, never its ciphertext'));
let shareSchema: ReturnType<typeof buildShare> | undefined;

/** A share as creating and listing answer it (the API document names it once). */
export const share = () => {
  shareSchema ??= buildShare();
  return shareSchema;
};
