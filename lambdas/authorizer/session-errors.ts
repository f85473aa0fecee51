/** The session's signature and claims are good but it is past `exp`. */
export class SessionExpiredError extends Error {
  override readonly name = 'SessionExpiredError';
}

/** The session is not acceptable (signature, algorithm, issuer, audience, `nbf`, claims). */
export class SessionInvalidError extends Error {
  override readonly name = 'SessionInvalidError';
}

/** The session cannot be judged now: the provider's key set could not be fetched. */
export class SessionKeysUnavailableError extends Error {
  override readonly name = 'SessionKeysUnavailableError';
}
