/**
 * The typed client of the Secrets Service, for Node programs, the `secrets` command and the dashboard:
 * `createClient({ apiUrl, token }).export(projectId, environment)`. Its types are generated from the
 * API's OpenAPI document (`client/api-types.ts`), so no path, method or body is typed here by hand.
 */
export type { components, operations, paths } from './api-types';
export {
  type ApiClient,
  bodyOf,
  type ClientOptions,
  createClient,
  dataOf,
  type Environment,
  type PromotedSecret,
  type RevealedShare,
  type SecretChange,
  type SecretChanges,
  type SecretComparison,
  type SecretInfo,
  type SecretsClient,
  type SecretValue,
  type SecretVersion,
  type Share,
  type ShareOptions,
} from './create-client';
export { type ErrorDetail, SecretsApiError, SecretsNetworkError, SignInRefusedError } from './errors';
export {
  fromBase64Url,
  isShareKey,
  openShare,
  type ParsedShareLink,
  parseShareLink,
  type SealedShare,
  SHARE_PATH_PREFIX,
  ShareKeyError,
  sealShare,
  shareLink,
  toBase64Url,
} from './share-link';
export { createTokenCache, refreshMarginOf, type SignedIn, type TokenCache } from './token-cache';
