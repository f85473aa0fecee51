/** The one way into the service: the typed client of `client/`, as any program uses it. */
export {
  type components,
  createClient,
  dataOf,
  parseShareLink,
  type SecretComparison,
  SecretsApiError,
  type SecretsClient,
  SecretsNetworkError,
  SignInRefusedError,
  shareLink,
} from '@client/index';
