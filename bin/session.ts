import { isDevEmail } from '../local/dev-idp';

const USAGE = 'Usage: npm run session -- <email>';

/** Prints a development session token for an e-mail, from the running local service's identity provider. */
const main = async (): Promise<void> => {
  const email = process.argv[2];
  if (!email) {
    console.error(USAGE);
    process.exit(2);
  }
  // The identity provider's own rule, checked here so a typo gets a sentence rather than its raw answer.
  if (!isDevEmail(email)) {
    console.error(
      `${JSON.stringify(email)} is not an e-mail address: give one, e.g. npm run session -- you@example.com`,
    );
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
  const body = (await response.json().catch(() => ({}))) as { token?: string; error?: string };
  if (!response.ok || !body.token) {
    throw new Error(
      `The development identity provider on ${base} refused (${response.status}): ${body.error ?? 'no token in its answer'}`,
    );
  }
  console.log(body.token);
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
