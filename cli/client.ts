/** The one way into the service: the typed client of `client/`, as any program uses it. */
export { createClient, SecretsApiError, type SecretsClient, SecretsNetworkError } from '@client/index';
