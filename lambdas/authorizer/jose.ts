/**
 * The parts of jose the session verifier uses, in a module of their own so that it can load them with
 * the first session (`require` of this module), while the bundle still carries only these parts.
 */
export { createRemoteJWKSet, errors, jwtVerify } from 'jose';
