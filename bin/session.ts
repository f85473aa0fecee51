/** Prints a development session token for an e-mail, from the running local service's identity provider. */
const main = async (): Promise<void> => {
  const email = process.argv[2];
  if (!email) {
    console.error('Usage: npm run session -- <email>');
    process.exit(2);
  }
  // `npm start` prints BASE_URL in its session command; PORT alone serves a service on loopback.
  const base = process.env.BASE_URL || `http://127.0.0.1:${process.env.PORT || 3000}`;
  const response = await fetch(`${base}/_dev/idp/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  }).catch(() => {
    throw new Error(
      `No local service answers on ${base}: start it with \`npm start\`, or set BASE_URL to the URL it printed.`,
    );
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token) throw new Error(body.error ?? `HTTP ${response.status}`);
  console.log(body.token);
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
