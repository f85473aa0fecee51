/** Generous: far beyond a poll of the table's stream on a busy machine; only a failure waits this long. */
export const WAIT_MS = 120_000;

/** Polls `probe` until it returns a value; fails with `seen()` after {@link WAIT_MS}. */
export const until = async <T>(probe: () => T | undefined, seen: () => unknown): Promise<T> => {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms; seen: ${JSON.stringify(seen(), null, 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
