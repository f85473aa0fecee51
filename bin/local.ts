// First: it must run before any module below creates an AWS SDK client.
import '../local/sdk-warning';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { type DataDirLock, lockDataDir } from '../local/data-dir';
import type { DynamoDbLocal } from '../local/dynamodb-local';
import type { EventLog } from '../local/event-log';
import type { LocalListener, TrustedIssuer } from '../local/service';
import {
  LOOPBACK_HOSTS,
  readRateLimitPerMinute,
  readTableName,
  StartConfigError,
  unreachableEndpoint,
} from '../local/start-config';
import type { WebhookDispatch } from '../local/webhook-dispatch';

const quoted = (value: string) => JSON.stringify(value);

const readPort = (value = '3000'): number => {
  if (!/^\d+$/.test(value) || Number(value) > 65_535) {
    throw new StartConfigError(`PORT must be a whole number from 0 to 65535, got ${quoted(value)}.`);
  }
  return Number(value);
};

/** Loopback unless HOST names another address; `localhost` means both loopbacks, as it may resolve to either. */
const readHosts = (value: string | undefined): readonly string[] => {
  if (value === undefined || value === '' || value === 'localhost') return LOOPBACK_HOSTS;
  if (!isIP(value)) throw new StartConfigError(`HOST must be an IP address or localhost, got ${quoted(value)}.`);
  return [value];
};

const readUrl = (name: string): string | undefined => {
  const value = process.env[name] || undefined;
  if (value !== undefined && (!/^https?:\/\//.test(value) || !URL.canParse(value))) {
    throw new StartConfigError(`${name} must be an http or https URL, got ${quoted(value)}.`);
  }
  return value;
};

/** An external issuer to trust instead of the development identity provider, when both of its variables are set. */
const readTrustedIssuer = (): TrustedIssuer | undefined => {
  const issuer = readUrl('SESSION_ISSUER');
  const audience = process.env.SESSION_AUDIENCE || undefined;
  const jwksUrl = readUrl('SESSION_JWKS_URL');
  if (issuer === undefined && audience === undefined && jwksUrl === undefined) return undefined;
  if (issuer === undefined || audience === undefined) {
    throw new StartConfigError(
      'Set SESSION_ISSUER and SESSION_AUDIENCE together to trust an external identity provider, or neither to use the development one.',
    );
  }
  return { issuer, audience, jwksUrl };
};

let dynamo: DynamoDbLocal | undefined;
let listener: LocalListener | undefined;
let eventLog: EventLog | undefined;
let webhookDispatch: WebhookDispatch | undefined;
let dataDirLock: DataDirLock | undefined;

/** Stops whatever has started, so no DynamoDB Local outlives this process. */
const shutdown = async (code: number): Promise<never> => {
  await eventLog?.stop().catch(() => undefined);
  await webhookDispatch?.stop().catch(() => undefined);
  await listener?.close().catch(() => undefined);
  await dynamo?.stop().catch(() => undefined);
  dataDirLock?.release();
  process.exit(code);
};

const explain = (error: unknown, port: number | undefined, hosts: readonly string[]): unknown => {
  if (error instanceof StartConfigError) return error.message;
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return `Port ${port} is in use: stop what runs there or set PORT to another port.`;
  if (code === 'EADDRNOTAVAIL')
    return `HOST ${hosts.join(', ')} is not an address of this machine: unset HOST or set it to one.`;
  return error;
};

const main = async (): Promise<void> => {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  let port: number | undefined;
  let hosts: readonly string[] = LOOPBACK_HOSTS;
  try {
    // Every setting is checked before anything starts, so a typo costs no Java start.
    port = readPort(process.env.PORT);
    hosts = readHosts(process.env.HOST);
    const trustedIssuer = readTrustedIssuer();
    const tableName = readTableName(process.env.TABLE_NAME);
    const rateLimitPerMinute = readRateLimitPerMinute(process.env.RATE_LIMIT_PER_MINUTE);
    const external = readUrl('DYNAMODB_ENDPOINT');
    const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : undefined;
    const functionLogs = process.env.LOG_LEVEL ? `the functions' JSON logs at ${process.env.LOG_LEVEL}` : undefined;
    if (dataDir) dataDirLock = lockDataDir(dataDir);
    // Loaded only once every setting has passed, so a refused start ends before the service's modules and
    // the AWS SDK load, which take most of a second. With `require`: npm start runs under tsx's CommonJS
    // hook alone (package.json), which an `import()` of a TypeScript module would bypass.
    const { listenLocal } = require('../local/service') as typeof import('../local/service');
    const { startDynamoDbLocal } = require('../local/dynamodb-local') as typeof import('../local/dynamodb-local');
    const { createTable } = require('../local/create-table') as typeof import('../local/create-table');
    const { EVENTS_FILE, printEvents, startEventLog } =
      require('../local/event-log') as typeof import('../local/event-log');
    const { LOOPBACK_NOTICE, startWebhookDispatch } =
      require('../local/webhook-dispatch') as typeof import('../local/webhook-dispatch');
    const { LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS, setDynamoRequestTimeout } =
      require('../local/dynamodb-patience') as typeof import('../local/dynamodb-patience');
    // DynamoDB Local accepts any credentials; these keep the SDK from looking for real ones.
    process.env.AWS_ACCESS_KEY_ID = 'local';
    process.env.AWS_SECRET_ACCESS_KEY = 'local';
    process.env.AWS_REGION ??= 'us-east-1';

    // The port is taken first: a busy one fails before DynamoDB Local starts, and requests that
    // arrive while it starts get a 503 to retry rather than a refused connection.
    listener = await listenLocal({
      port,
      hosts,
      dashboardOrigin: process.env.DASHBOARD_ORIGIN || undefined,
      rateLimitPerMinute,
      requestLog: (line) => {
        console.log(line);
        // What the request wrote shows within the event log's short pause, however long it idled.
        eventLog?.nudge();
      },
    });
    const exposed = hosts.filter((host) => !LOOPBACK_HOSTS.includes(host)).join(', ');
    if (exposed && !trustedIssuer) {
      console.warn(
        `Warning: anyone who can reach ${exposed} can mint sessions, as the development identity provider signs one for any e-mail.`,
      );
    }
    if (!external) dynamo = await startDynamoDbLocal({ dataDir });
    const endpoint = external ?? dynamo?.endpoint ?? '';
    await createTable(endpoint, tableName).catch((error: unknown) => {
      throw (external && unreachableEndpoint(error, external)) || error;
    });
    // Positioned before the API serves, so the first request's events are shown.
    // Each event is printed, then handed to the webhooks that receive it (delivered beside the log).
    const print = printEvents(dataDir);
    const dispatch = startWebhookDispatch();
    webhookDispatch = dispatch;
    eventLog = await startEventLog({
      endpoint,
      tableName,
      sink: async (event) => {
        await print(event);
        await dispatch.sink(event);
      },
    });
    const service = await listener.serve({ dynamoEndpoint: endpoint, tableName, dataDir, trustedIssuer });
    setDynamoRequestTimeout(LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS);

    const storage = dataDir ? `data in ${dataDir}` : 'in memory';
    const signIn = trustedIssuer ? `sign in at ${trustedIssuer.issuer}` : 'sign in with any e-mail';
    console.log(`Dashboard: ${service.baseUrl}/ (${signIn})`);
    console.log(`Secrets Service API on ${service.baseUrl}/api/v1 (DynamoDB ${endpoint}, ${storage})`);
    if (trustedIssuer) {
      const keys = trustedIssuer.jwksUrl ?? 'its discovery document';
      console.log(
        `Sessions: ID tokens of ${trustedIssuer.issuer} for audience ${trustedIssuer.audience} (keys from ${keys})`,
      );
    } else {
      console.log('Get a dashboard session token:');
      console.log(`  BASE_URL=${service.baseUrl} npm run session -- you@example.com`);
      console.log(
        `  curl -s -X POST ${service.baseUrl}/_dev/idp/token -H 'Content-Type: application/json' -d '{"email":"you@example.com"}'`,
      );
    }
    const { accessKeyId, secretAccessKey, arn } = service.sts.key;
    console.log(`AWS sign-in: STS is stood in for at ${service.baseUrl}/_dev/sts; this key signs in as ${arn}:`);
    console.log(`  export AWS_ACCESS_KEY_ID=${accessKeyId} AWS_SECRET_ACCESS_KEY=${secretAccessKey}`);
    const eventsFile = dataDir ? ` and appended to ${join(dataDir, EVENTS_FILE)}` : '';
    console.log(`Audit events, as the event bus would receive them: "event: <json>" lines here${eventsFile}`);
    console.log('Webhooks: each audit event is delivered to the webhooks that receive it, as deployed');
    if (process.env.WEBHOOKS_ALLOW_LOOPBACK === '1') console.log(LOOPBACK_NOTICE);
    console.log(
      `Requests: one line each here, with ${functionLogs ?? "the functions' warnings and errors (LOG_LEVEL=info shows all their JSON logs)"}`,
    );
    console.log('Send the token expiry notices due now (deployed: every hour):');
    console.log(`  DYNAMODB_ENDPOINT=${endpoint} TABLE_NAME=${tableName} npm run expiry-notices`);
    console.log('Ctrl-C stops the service and DynamoDB Local.');
  } catch (error) {
    console.error(explain(error, port, hosts));
    await shutdown(1);
  }
};

void main();
