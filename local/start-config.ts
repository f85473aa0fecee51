/** A start setting that cannot work; its message is one sentence naming the variable. */
export class StartConfigError extends Error {
  override readonly name = 'StartConfigError';
}
