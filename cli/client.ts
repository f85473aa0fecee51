/**
 * The one way into the service: the typed client's interface. While `client/` is not on this branch,
 * a stand-in with the same interface serves; switching is this one import.
 */
export { createClient, SecretsApiError, type SecretsClient, SecretsNetworkError } from './stand-in-client';
