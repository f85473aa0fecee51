/**
 * Warm CPU per invocation of one function, run as its own process as in its own container:
 * bench/run.ts bundles this file with the stack's esbuild settings and runs the bundle once per
 * function, so the handler and the SDK run compiled as deployed and no other function makes the
 * libraries' code polymorphic (`tsx bench/warm-cpu.ts <out.json> <floors.json> <function>` runs it from
 * source; floors.json names each function's floor bundle). The SDK answers from an in-memory transport,
 * `fetch` (STS) from memory too, and the sign-ins' OIDC issuer from a server on loopback (no network).
 * The floor is the function's floor bundle (`bench/library-floor.ts`: the same
 * libraries and nothing else) doing the function's own I/O through them: its DynamoDB calls replayed
 * with the same commands and input, its log lines with the same attributes and its metric lines with
 * the same values, in a middy handler with the same Powertools middlewares, on the same transport. An
 * event is made before its time starts, as the Lambda runtime hands it over. Both sides first run
 * until V8 has compiled them fully, as in a container that has served a while, then take turns,
 * invocation by invocation; every timing is written to the file named.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { SampleWorld } from '@contract/route';
import { BENCH_DATA_KEY, BUNDLE_ENV, benchAuthorizerEvent, cannedKms } from './fixtures';
import type { FloorEvent } from './replay';
import { WARM, WARM_CONFIRM, WARM_SCREEN, WARM_SETTLE } from './sampling';
import { clearance, needsMore, pairedRatios, type Sequential } from './stats';

Object.assign(process.env, BUNDLE_ENV);

type Json = Record<string, unknown>;
/**
 * Each side's milliseconds per invocation; the i-th of each were taken one beside the other. `kmsCalls`:
 * the KMS requests the function made once warm, its floor's capture included (none: the harness
 * refuses a warm invocation that makes one, as its floor replays no KMS call).
 */
export type Measured = { samples: number[]; floor: number[]; kmsCalls: number };

/**
 * The ciphers and deciphers an invocation makes through node:crypto while it runs: the service's are
 * AES-GCM only (a seal takes a cipher, an opening a decipher), and the bench's KMS answers from memory
 * and makes none, so each is a value's. Counted on node:crypto's own exports, which the bundled service
 * calls through at each use.
 */
const valueCiphers = async <T>(run: () => Promise<T>): Promise<{ answer: T; seals: number; opens: number }> => {
  type Ciphers = Record<'createCipheriv' | 'createDecipheriv', (...args: unknown[]) => unknown>;
  const nodeCrypto = createRequire(__filename)('node:crypto') as Ciphers;
  const { createCipheriv, createDecipheriv } = nodeCrypto;
  const used = { seals: 0, opens: 0 };
  nodeCrypto.createCipheriv = (...args) => {
    used.seals += 1;
    return createCipheriv(...args);
  };
  nodeCrypto.createDecipheriv = (...args) => {
    used.opens += 1;
    return createDecipheriv(...args);
  };
  try {
    return { answer: await run(), ...used };
  } finally {
    Object.assign(nodeCrypto, { createCipheriv, createDecipheriv });
  }
};

/** What `fetch` answers, and the bench issuer serves, by URL: filled by `signInWorld`. */
const fetched = new Map<string, () => Response>();

/**
 * The OIDC issuer of the sign-ins: an `http` server on loopback, which the verifier may fetch in a
 * process that is not Lambda with `SIGN_IN_ALLOW_LOOPBACK=1` (as under `npm start`), since it fetches an
 * issuer's documents only from addresses it has checked, through its own connection, never `fetch`.
 * It serves what `fetched` holds for its URLs; only a function's first invocation fetches them.
 */
const startBenchIssuer = async (): Promise<string> => {
  process.env.SIGN_IN_ALLOW_LOOPBACK = '1';
  const server = createServer(async (request, response) => {
    const answered = fetched.get(`${issuer}${request.url}`)?.();
    response.writeHead(answered?.status ?? 404, {
      'content-type': answered?.headers.get('content-type') ?? 'text/plain',
    });
    response.end(answered ? Buffer.from(await answered.arrayBuffer()) : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return issuer;
};

const main = async () => {
  // One function per process, as in its own container: no other function's calls make the shared
  // libraries' code polymorphic.
  const [out = 'warm-cpu.json', floorsFile = '', subject = 'authorizer'] = process.argv.slice(2);
  const { DynamoDBClient, GetItemCommand } = await import('@aws-sdk/client-dynamodb');
  const { marshall } = await import('@aws-sdk/util-dynamodb');
  // After the environment is set: the service's data module reads it at load.
  const { captureIo, checkReplayable, loadFloor, serviceClients } = await import('./replay');
  const { mintToken } = await import('@lambdas/domain/token-format');
  const { isRouteContract, SAMPLE_SECRET, SAMPLE_SHARE, SAMPLE_WORLD } = await import('@contract/route');
  const { decryptValue, encryptValue } = await import('@lambdas/crypto/envelope');
  const { valueDigest } = await import('@lambdas/crypto/value-digest');

  const now = new Date().toISOString();
  const far = '2999-01-01T00:00:00.000Z';
  const minted = mintToken();
  const email = 'bench@example.com';
  const projectId = 'prj_AAAAAAAAAAAAAAAA';
  const token = {
    PK: `TOKEN#${minted.tokenId}`,
    SK: 'TOKEN',
    entity: 'Token',
    tokenId: minted.tokenId,
    userId: 'user-1',
    name: 'bench',
    scopes: ['admin'],
    secretHash: minted.hash,
    boundIp: '203.0.113.7',
    displayPrefix: minted.displayPrefix,
    createdAt: now,
    expiresAt: far,
    lastUsedAt: far,
    GSI1PK: 'USER#user-1#TOKENS',
    GSI1SK: `${now}#${minted.tokenId}`,
  };
  const member = (userId: string, role: string) => ({
    PK: `PROJECT#${projectId}`,
    SK: `MEMBER#${userId}`,
    entity: 'Member',
    projectId,
    projectName: 'bench',
    projectCreatedAt: now,
    userId,
    role,
    addedAt: now,
  });
  const userProfile = (userId: string, profileEmail: string) => ({
    PK: `USER#${userId}`,
    SK: 'PROFILE',
    entity: 'Profile',
    userId,
    email: profileEmail,
    lastSeenAt: now,
  });
  const slots = {
    PK: 'USER#user-1',
    SK: 'TOKEN_SLOTS',
    entity: 'TokenSlots',
    version: 3,
    slots: { [mintToken().tokenId]: 0, [mintToken().tokenId]: Date.parse(far) },
  };
  /** The share the share routes' samples name, and its creator's slots (two more shares). */
  const share = {
    PK: `SHARE#${SAMPLE_WORLD.shareId}`,
    SK: 'SHARE',
    entity: 'Share',
    shareId: SAMPLE_WORLD.shareId,
    userId: 'user-1',
    creatorEmail: email,
    ciphertext: SAMPLE_SHARE.ciphertext,
    createdAt: now,
    expiresAt: far,
    maxViews: SAMPLE_SHARE.maxViews,
    viewsLeft: SAMPLE_SHARE.maxViews,
    GSI1PK: 'USER#user-1#SHARES',
    GSI1SK: `${now}#${SAMPLE_WORLD.shareId}`,
  };
  const shareSlots = {
    PK: 'USER#user-1',
    SK: 'SHARE_SLOTS',
    entity: 'ShareSlots',
    version: 3,
    slots: { [SAMPLE_WORLD.shareId]: Date.parse(far), shr_BBBBBBBBBBBBBBBBBBBBBB: Date.parse(far) },
  };
  /** The service account the service-account routes' samples name, reading the sample secret's environment. */
  const serviceAccount = {
    PK: `PROJECT#${projectId}`,
    SK: `SERVICE_ACCOUNT#${SAMPLE_WORLD.serviceAccountId}`,
    entity: 'ServiceAccount',
    projectId,
    serviceAccountId: SAMPLE_WORLD.serviceAccountId,
    name: 'bench',
    description: null,
    access: { [SAMPLE_SECRET.environment]: { level: 'read' } },
    createdAt: now,
    createdBy: { userId: 'user-1', email },
  };
  /**
   * The service account's token the service-account token routes' samples name (`serviceAccountTokenId`):
   * a token whose user is the service account, of its project, living 90 days; and the service
   * account's slots, holding it and one more.
   */
  const serviceAccountExpiry = new Date(Date.parse(now) + 90 * 24 * 3_600_000).toISOString();
  const serviceAccountToken = {
    ...token,
    PK: `TOKEN#${SAMPLE_WORLD.serviceAccountTokenId}`,
    tokenId: SAMPLE_WORLD.serviceAccountTokenId,
    userId: SAMPLE_WORLD.serviceAccountId,
    serviceAccountProject: projectId,
    scopes: [],
    expiresAt: serviceAccountExpiry,
    GSI1PK: `USER#${SAMPLE_WORLD.serviceAccountId}#TOKENS`,
    GSI1SK: `${now}#${SAMPLE_WORLD.serviceAccountTokenId}`,
  };
  const serviceAccountSlots = {
    PK: `USER#${SAMPLE_WORLD.serviceAccountId}`,
    SK: 'TOKEN_SLOTS',
    entity: 'TokenSlots',
    version: 2,
    slots: {
      [SAMPLE_WORLD.serviceAccountTokenId]: Date.parse(serviceAccountExpiry),
      [mintToken().tokenId]: Date.parse(serviceAccountExpiry),
    },
  };
  /**
   * The service account's trust rules: an `oidc` rule (`trustRuleId`, which delete-trust-rule's sample
   * names) trusting the bench issuer's tokens for one subject, and an `aws` rule trusting one role, whose
   * session the bench's STS answers (`signInWorld` below makes the sign-ins' proofs for both).
   */
  const benchIssuer = await startBenchIssuer();
  const benchAudience = 'secrets-service';
  const benchSubject = 'repo:acme/app:ref:refs/heads/main';
  const benchRole = 'arn:aws:iam::000000000000:role/bench-ci';
  const benchRoleSession = 'arn:aws:sts::000000000000:assumed-role/bench-ci/bench-session';
  const trustRules = {
    PK: `SA#${SAMPLE_WORLD.serviceAccountId}`,
    SK: 'TRUST_RULES',
    entity: 'TrustRules',
    serviceAccountId: SAMPLE_WORLD.serviceAccountId,
    projectId,
    rules: [
      {
        id: SAMPLE_WORLD.trustRuleId,
        kind: 'oidc',
        issuer: benchIssuer,
        audience: benchAudience,
        subject: benchSubject,
        createdAt: now,
      },
      { id: 'tr_BBBBBBBBBBBBBBBB', kind: 'aws', principals: [benchRole], createdAt: now },
    ],
  };
  /** The webhook the webhook routes' samples name (its secret is never opened by them), and one delivery of it. */
  const webhook = {
    PK: `PROJECT#${projectId}`,
    SK: `WEBHOOK#${SAMPLE_WORLD.webhookId}`,
    entity: 'Webhook',
    projectId,
    webhookId: SAMPLE_WORLD.webhookId,
    url: 'https://203.0.114.10/hooks/secrets',
    events: ['secret.*'],
    environments: null,
    createdAt: now,
    createdBy: 'user-1',
    secret: new Uint8Array(64),
  };
  const delivery = {
    PK: `PROJECT#${projectId}`,
    SK: `DELIVERY#${SAMPLE_WORLD.webhookId}#${now}`,
    entity: 'WebhookDelivery',
    projectId,
    webhookId: SAMPLE_WORLD.webhookId,
    time: now,
    eventId: 'evt_AAAAAAAAAAAAAAAAAAAA',
    eventTime: now,
    event: 'secret.updated',
    attempt: 1,
    statusCode: 200,
    durationMs: 42,
    outcome: 'delivered',
    error: null,
  };
  const claim = {
    PK: 'EMAIL#new@example.com',
    SK: 'USER',
    entity: 'EmailClaim',
    email: 'new@example.com',
    userId: 'user-2',
  };

  /**
   * The project as the secret routes' samples find it (`SampleWorld`): its data key stored, and
   * `SAMPLE_SECRET` at version 1, sealed by the envelope module under that key as the head's copy and
   * as the version's own, as the service writes them, so that each opens where it is read.
   */
  const project = {
    PK: `PROJECT#${projectId}`,
    SK: 'PROJECT',
    entity: 'Project',
    projectId,
    name: 'bench',
    createdAt: now,
    dataKey: BENCH_DATA_KEY.wrapped,
  };
  const life = 'AAAAAAAAAAAA';
  const secretAddress = {
    projectId,
    environment: SAMPLE_SECRET.environment,
    name: SAMPLE_SECRET.name,
    life,
    version: 1,
    copy: 'head' as const,
  };
  const secretsPartition = `SECRETS#${projectId}#${SAMPLE_SECRET.environment}`;
  /** The other environment of the samples of the routes about two (compare, promote): they name it `to`. */
  const OTHER_ENVIRONMENT = 'staging';
  const written = { name: SAMPLE_SECRET.name, version: 1, updatedAt: now, updatedBy: { userId: 'user-1', email } };
  const sealed = encryptValue(BENCH_DATA_KEY.plaintext, secretAddress, SAMPLE_SECRET.value);
  const sealedVersion = encryptValue(
    BENCH_DATA_KEY.plaintext,
    Object.assign({}, secretAddress, { copy: 'version' as const }),
    SAMPLE_SECRET.value,
  );
  const exportBytes = Buffer.byteLength(
    `${JSON.stringify(SAMPLE_SECRET.name)}:${JSON.stringify(SAMPLE_SECRET.value)},`,
  );
  const digested = { valueDigest: valueDigest(BENCH_DATA_KEY.plaintext, SAMPLE_SECRET.value) };
  const secretHead = Object.assign(
    { PK: secretsPartition, SK: `SECRET#${SAMPLE_SECRET.name}`, entity: 'SecretHead' },
    { projectId, environment: SAMPLE_SECRET.environment, life, exportBytes },
    sealed,
    digested,
    written,
  );
  const secretVersion = Object.assign(
    { PK: secretsPartition, SK: `VERSION#${SAMPLE_SECRET.name}#${life}#0000000001`, entity: 'SecretVersion' },
    written,
    sealedVersion,
    digested,
    { deleted: false },
  );

  /**
   * The change requests the change-request routes' samples name, open in the sample secret's
   * environment: the member's, setting one secret (its value sealed for the request), and the
   * caller's own; and the environment's slots holding both.
   */
  const changeRequestOf = (id: string, userId: string, name: string) => ({
    PK: secretsPartition,
    SK: `CHANGE#${id}`,
    entity: 'ChangeRequest',
    projectId,
    environment: SAMPLE_SECRET.environment,
    id,
    status: 'open',
    author: { userId, email },
    changes: [{ name, action: 'set', fromVersion: 0 }],
    approvals: [],
    createdAt: now,
    expiresAt: far,
    revision: 1,
  });
  const memberRequest = changeRequestOf(SAMPLE_WORLD.changeRequestId, 'user-2', 'MEMBER_PROPOSED');
  const ownRequest = changeRequestOf(SAMPLE_WORLD.ownChangeRequestId, 'user-1', 'OWNER_PROPOSED');
  const proposedValue = Object.assign(
    { name: 'MEMBER_PROPOSED' },
    encryptValue(
      BENCH_DATA_KEY.plaintext,
      {
        projectId,
        environment: SAMPLE_SECRET.environment,
        name: 'MEMBER_PROPOSED',
        life: SAMPLE_WORLD.changeRequestId,
        version: 0,
        copy: 'proposal',
      },
      'proposed',
    ),
  );
  /**
   * Events of a trail, as the audit routes read them: the user's own (the caller's token created) in
   * its partition, written to the project's trail too.
   */
  const { DEFAULT_AUDIT_RETENTION_DAYS } = await import('@contract/audit');
  const { auditEvent } = await import('@lambdas/domain/audit');
  const { auditEventItem } = await import('@lambdas/data/audit-item');
  const trailEvent = () =>
    auditEventItem(
      auditEvent(
        'token.created',
        {
          actor: {
            type: 'user',
            id: 'user-1',
            name: null,
            userId: 'user-1',
            email,
            via: 'session',
            tokenId: null,
            subject: null,
          },
          sourceIp: '203.0.113.7',
          userAgent: 'bench',
          requestId: 'bench',
        },
        new Date(now),
        { tokenId: token.tokenId, projectId },
        { name: token.name, scopes: token.scopes, expiresAt: far },
      ),
      { userId: 'user-1', projectId },
      DEFAULT_AUDIT_RETENTION_DAYS,
    );
  const changeSlots = {
    PK: secretsPartition,
    SK: 'CHANGE_SLOTS',
    entity: 'ChangeSlots',
    version: 2,
    slots: { [SAMPLE_WORLD.changeRequestId]: Date.parse(far), [SAMPLE_WORLD.ownChangeRequestId]: Date.parse(far) },
  };

  /**
   * Canned DynamoDB answers, encoded once: enough for every route's success path. Binary attributes
   * (a wrapped key, a sealed value) travel in base64, as DynamoDB's JSON carries them.
   */
  const encode = (value: Json) =>
    Buffer.from(
      JSON.stringify(value, function (this: Record<string, unknown>, key, replaced) {
        const original = this[key];
        return original instanceof Uint8Array ? Buffer.from(original).toString('base64') : replaced;
      }),
    );
  const environment = (name: string) => ({
    PK: `PROJECT#${projectId}`,
    SK: `ENV#${name}`,
    entity: 'Environment',
    projectId,
    name,
    createdAt: now,
    secretCount: name === SAMPLE_SECRET.environment ? 1 : 0,
    exportBytes: name === SAMPLE_SECRET.environment ? exportBytes : 0,
  });
  const itemsOf = (items: Json[]) => encode({ Items: items.map((item) => marshall(item)), Count: items.length });
  /** Only the attributes a Query's projection names. */
  const projected = (item: Json, names: readonly string[]) =>
    Object.fromEntries(names.filter((name) => name in item).map((name) => [name, item[name]]));
  const responses = (items: Json[]) =>
    encode({ Responses: { [BUNDLE_ENV.TABLE_NAME]: items.map((item) => marshall(item)) }, UnprocessedKeys: {} });
  /**
   * A secret route's context read: the membership and the environment (and the other one, for a route
   * about two: compare, promote), with the head and the project when asked.
   */
  const secretContext = (withHead: boolean, withProject: boolean, withOther: boolean) =>
    responses([
      member('user-1', 'owner'),
      environment(SAMPLE_SECRET.environment),
      ...(withOther ? [environment(OTHER_ENVIRONMENT)] : []),
      ...(withHead ? [secretHead] : []),
      ...(withProject ? [project] : []),
    ]);
  const answers = {
    none: encode({}),
    slots: encode({ Item: marshall(slots) }),
    share: encode({ Item: marshall(share) }),
    shareSlots: encode({ Item: marshall(shareSlots) }),
    shares: itemsOf(
      Array.from({ length: 5 }, () =>
        projected(share, ['shareId', 'userId', 'creatorEmail', 'createdAt', 'expiresAt', 'maxViews', 'viewsLeft']),
      ),
    ),
    token: encode({ Item: marshall(token) }),
    serviceAccountToken: encode({ Item: marshall(serviceAccountToken) }),
    serviceAccountTokens: itemsOf([serviceAccountToken, serviceAccountToken]),
    serviceAccountSlots: encode({ Item: marshall(serviceAccountSlots) }),
    trustRules: encode({ Item: marshall(trustRules) }),
    claim: encode({ Item: marshall(claim) }),
    owner: encode({ Item: marshall(member('user-1', 'owner')) }),
    plainMember: encode({ Item: marshall(member('user-2', 'member')) }),
    tokens: itemsOf(Array.from({ length: 5 }, () => token)),
    members: itemsOf([member('user-1', 'owner'), member('user-2', 'member'), member('user-3', 'admin')]),
    environments: itemsOf(['development', 'production', 'staging'].map(environment)),
    secretHeads: itemsOf([secretHead]),
    secretHeadsListed: itemsOf([
      projected(secretHead, ['name', 'version', 'updatedAt', 'updatedBy', 'deletedAt', 'valueDigest']),
    ]),
    secretVersions: itemsOf([projected(secretVersion, ['name', 'version', 'updatedAt', 'updatedBy', 'deleted'])]),
    secretVersion: encode({ Item: marshall(secretVersion) }),
    memberRequest: encode({ Item: marshall(memberRequest) }),
    ownRequest: encode({ Item: marshall(ownRequest) }),
    changeRequests: itemsOf([memberRequest, ownRequest]),
    proposedValues: itemsOf([proposedValue]),
    changeSlots: encode({ Item: marshall(changeSlots) }),
    otherEnvironment: encode({ Item: marshall(environment(OTHER_ENVIRONMENT)) }),
    secretContext: secretContext(false, false, false),
    secretContextWithHead: secretContext(true, false, false),
    secretContextWithProject: secretContext(false, true, false),
    secretContextWithBoth: secretContext(true, true, false),
    pairContext: secretContext(false, false, true),
    pairContextWithBoth: secretContext(true, true, true),
    serviceAccount: encode({ Item: marshall(serviceAccount) }),
    webhook: encode({ Item: marshall(webhook) }),
    webhooks: itemsOf([webhook, webhook]),
    deliveries: itemsOf([delivery, delivery, delivery]),
    project: encode({ Item: marshall(project) }),
    serviceAccounts: itemsOf([serviceAccount, serviceAccount, serviceAccount]),
    events: itemsOf(Array.from({ length: 5 }, trailEvent)),
    profiles: encode({
      Responses: {
        [BUNDLE_ENV.TABLE_NAME]: [
          userProfile('user-1', email),
          userProfile('user-2', 'a@example.com'),
          userProfile('user-3', 'b@example.com'),
        ].map((item) => marshall(item)),
      },
    }),
  };
  /**
   * The slot item create-token reads: a user who holds two tokens already, as in every create but a
   * user's first (measured for reference with none).
   */
  let slotAnswer = answers.slots;
  /**
   * The answer to a request, by its operation and what its body names. Bodies are searched, never
   * parsed: a write's body holds fresh ids, and parsing them would cost a handler more than its
   * floor, which replays the same ids every time.
   */
  const answer = (operation: string, body: { includes: (text: string) => boolean }): Buffer => {
    if (operation === 'GetItem') {
      if (body.includes('TRUST_RULES')) return answers.trustRules;
      if (body.includes('SERVICE_ACCOUNT#')) return answers.serviceAccount;
      if (body.includes('WEBHOOK#')) return answers.webhook;
      if (body.includes('{"S":"PROJECT"}')) return answers.project;
      if (body.includes('CHANGE_SLOTS')) return answers.changeSlots;
      if (body.includes('CHANGE#')) {
        return body.includes(SAMPLE_WORLD.ownChangeRequestId) ? answers.ownRequest : answers.memberRequest;
      }
      if (body.includes('VERSION#')) return answers.secretVersion;
      if (body.includes('TOKEN_SLOTS')) {
        return body.includes(SAMPLE_WORLD.serviceAccountId) ? answers.serviceAccountSlots : slotAnswer;
      }
      if (body.includes('SHARE_SLOTS')) return answers.shareSlots;
      if (body.includes('SHARE#')) return answers.share;
      // The service account's token by its id; any other, the person's.
      if (body.includes(`TOKEN#${SAMPLE_WORLD.serviceAccountTokenId}`)) return answers.serviceAccountToken;
      if (body.includes('TOKEN#')) return answers.token;
      if (body.includes('EMAIL#')) return answers.claim;
      // The member the samples name (the claim's user): a plain member, whose access an owner sets.
      if (body.includes(`MEMBER#${claim.userId}`)) return answers.plainMember;
      if (body.includes('MEMBER#')) return answers.owner;
      // The environment a settings change names (update-environment's sample: the other one).
      if (body.includes(`ENV#${OTHER_ENVIRONMENT}`)) return answers.otherEnvironment;
      return answers.none;
    }
    if (operation === 'Query') {
      if (body.includes('#TOKENS')) {
        return body.includes(SAMPLE_WORLD.serviceAccountId) ? answers.serviceAccountTokens : answers.tokens;
      }
      if (body.includes('#SHARES')) return answers.shares;
      if (body.includes('SECRETS#')) {
        if (body.includes('CHANGE_VALUE#')) return answers.proposedValues;
        if (body.includes('CHANGE#')) return answers.changeRequests;
        if (body.includes('VERSION#')) return answers.secretVersions;
        return body.includes('ProjectionExpression') ? answers.secretHeadsListed : answers.secretHeads;
      }
      if (body.includes('AUDIT')) return answers.events;
      if (body.includes('SERVICE_ACCOUNT#')) return answers.serviceAccounts;
      if (body.includes('DELIVERY#')) return answers.deliveries;
      if (body.includes('WEBHOOK#')) return answers.webhooks;
      return body.includes('ENV#') ? answers.environments : answers.members;
    }
    if (operation === 'BatchGetItem') {
      // A secret route's context names the environment; the head is there only for the sample's secret.
      if (!body.includes('ENV#')) return answers.profiles;
      const head = body.includes(`SECRET#${SAMPLE_SECRET.name}"`);
      const withProject = body.includes('{"S":"PROJECT"}');
      if (body.includes(`ENV#${OTHER_ENVIRONMENT}"`)) {
        return head && withProject ? answers.pairContextWithBoth : answers.pairContext;
      }
      if (head) return withProject ? answers.secretContextWithBoth : answers.secretContextWithHead;
      return withProject ? answers.secretContextWithProject : answers.secretContext;
    }
    return answers.none;
  };

  const transport = {
    handle: async (request: { headers: Record<string, string>; body: Uint8Array | string }) => {
      const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      // A view of the bytes: Buffer.from(body) would take the SDK's body adapter by its valueOf, which it warns about.
      const body =
        typeof request.body === 'string'
          ? request.body
          : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
      const payload = answer(operation, body);
      return {
        response: {
          statusCode: 200,
          reason: 'OK',
          headers: { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(payload.length) },
          body: Readable.from([payload]),
        },
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    destroy: () => undefined,
  };
  // Swapped before the first send: a client resolves its handler on first use.
  for (const client of serviceClients) client.config.requestHandler = transport;

  /** The host the bench's requests reach the API at, as API Gateway names it (`requestContext.domainName`). */
  const apiHost = 'api.bench.example';
  // `fetch` answers from `fetched`; any other URL fails, as the bench makes no network call.
  globalThis.fetch = (async (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const answered = fetched.get(url);
    if (!answered) throw new Error(`the bench answers no fetch of ${url}`);
    return answered();
  }) as typeof fetch;
  /**
   * The world of the sign-ins: `SAMPLE_WORLD` with proofs the canned trust rules accept (its own are
   * placeholders). The workload token is the bench issuer's, signed ES256 with the key its key set
   * holds; the AWS request is signed for the bench's API host with a bench key pair. The bench issuer
   * serves the issuer's discovery document and key set, which only the first invocation fetches (the
   * verifier keeps them, as a warm function does), and `fetch` answers STS's answer naming a
   * session of the `aws` rule's role (checking the signature is STS's work, not the service's, so this
   * answer does not check it).
   */
  /**
   * The proof work of a sign-in, for its floor: one jose `jwtVerify` of the workload token against the
   * issuer's key set, or one exchange with STS and its answer's ARN read.
   */
  const signInProofWork = async (handler: string, sent: unknown): Promise<() => Promise<unknown>> => {
    const { createLocalJWKSet, jwtVerify } = await import('jose');
    const proof = sent as { token?: string; request?: { headers: Record<string, string>; body: string } };
    if (handler === 'sign-in-oidc') {
      const keys = createLocalJWKSet((await (await fetch(`${benchIssuer}/jwks`)).json()) as never);
      return () => jwtVerify(String(proof.token), keys, { issuer: benchIssuer, audience: benchAudience });
    }
    return async () => {
      const answer = await fetch('https://sts.amazonaws.com/', {
        method: 'POST',
        headers: proof.request?.headers,
        body: proof.request?.body,
      });
      return /<Arn>([^<]*)<\/Arn>/.exec(await answer.text());
    };
  };
  const signInWorld = async (): Promise<SampleWorld> => {
    const { SignJWT, exportJWK, generateKeyPair } = await import('jose');
    const { signedCallerIdentityRequest } = await import('../client/aws-sign-in');
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' }] };
    const json = (value: unknown) => () =>
      new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
    fetched.set(
      `${benchIssuer}/.well-known/openid-configuration`,
      json({ issuer: benchIssuer, jwks_uri: `${benchIssuer}/jwks` }),
    );
    fetched.set(`${benchIssuer}/jwks`, json(jwks));
    // As STS answers GetCallerIdentity (local/dev-sts.ts), for a session of the rule's role.
    const callerIdentity =
      '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">\n  <GetCallerIdentityResult>\n' +
      `    <Arn>${benchRoleSession}</Arn>\n    <UserId>AROABENCH00000000000:bench-session</UserId>\n` +
      '    <Account>000000000000</Account>\n  </GetCallerIdentityResult>\n  <ResponseMetadata>\n' +
      '    <RequestId>00000000-0000-0000-0000-000000000000</RequestId>\n  </ResponseMetadata>\n</GetCallerIdentityResponse>\n';
    fetched.set(
      'https://sts.amazonaws.com/',
      () => new Response(callerIdentity, { status: 200, headers: { 'content-type': 'text/xml' } }),
    );
    const issuedAt = Math.floor(Date.now() / 1000);
    const workloadToken = await new SignJWT({ repository: 'acme/app' })
      .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'JWT' })
      .setIssuer(benchIssuer)
      .setAudience(benchAudience)
      .setSubject(benchSubject)
      .setIssuedAt(issuedAt)
      // Longer than any bench process runs.
      .setExpirationTime(issuedAt + 3_600)
      .sign(privateKey);
    const awsSignInRequest = await signedCallerIdentityRequest({
      credentials: { accessKeyId: 'AKIABENCH0000000000A', secretAccessKey: 'bench/secret/access/key/0000000000000000' },
      service: apiHost,
    });
    return { ...SAMPLE_WORLD, workloadToken, awsSignInRequest };
  };

  /**
   * A handler's invocation: `event` makes a fresh event, untimed (the Lambda runtime hands it over
   * before the handler's time starts); `run` is the timed call.
   */
  type Invocation = { event: () => unknown; run: (event: unknown) => Promise<unknown> };

  /** Milliseconds of one invocation, its event made before its time starts. */
  const time = async ({ event, run }: Invocation) => {
    const input = event();
    const started = process.hrtime.bigint();
    await run(input);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };

  const results: Record<string, Measured> = {};
  /** Measures against another floor, shown for reference. */
  const references: Record<string, Measured> = {};

  const floorFiles = JSON.parse(readFileSync(floorsFile, 'utf8')) as Record<string, string>;
  /** The Lambda context every handler and floor is given. */
  const context = { getRemainingTimeInMillis: () => 10_000, awsRequestId: 'bench' };
  /**
   * One consistent read through a plain client: the least a route that reads must do. A route that
   * needs no data is held to it on top of its own floor, since its libraries' work alone is so little
   * that any code of its own would be a large share of it.
   */
  const bareClient = new DynamoDBClient({ requestHandler: transport as never });
  const bareRead = () =>
    bareClient.send(
      new GetItemCommand({
        TableName: BUNDLE_ENV.TABLE_NAME,
        Key: marshall({ PK: token.PK, SK: token.SK }),
        ConsistentRead: true,
      }),
    );
  /**
   * The floor of an invocation: its I/O replayed through its floor bundle's libraries, as a function of
   * those libraries alone would do it.
   */
  const floorOf = async (
    name: string,
    invoke: Invocation,
    needsData = true,
    contractWork: () => unknown = () => undefined,
  ): Promise<Invocation> => {
    const file = floorFiles[name];
    if (!file) throw new Error(`no floor bundle for ${name}`);
    const floor = loadFloor(file, { requestHandler: transport });
    const io = await captureIo(() => invoke.run(invoke.event()));
    checkReplayable(name, floor, io);
    return {
      event: () => structuredClone(io),
      run: async (event) => {
        await contractWork();
        await floor.handler(event as FloorEvent, context);
        if (!needsData) await bareRead();
      },
    };
  };
  /**
   * Invocations of the function and of its floor, one of each in turn (the first of a pair
   * alternating), so that whatever the machine or the JIT does at a moment falls on both: the i-th
   * samples of the two sides pair up. Blocks of 200 of each, tried first, left a block's ratio at the
   * mercy of what else ran during it (intervals of ±0.15 on a busy machine); turns of 10 or 100 gave
   * the same ratios as turns of one, within their intervals. A screen comes first (`WARM_SCREEN`): a
   * function already clear below its target after a short warm-up keeps that verdict, since a ratio
   * taken that early is, if anything, higher than its warm one; any other goes on to the full warm-up,
   * then takes pairs a batch at a time until its interval is clear of its target (bench/sampling.ts).
   * A miss is confirmed warmer: one clear above its target warms up `WARM_CONFIRM` more and is measured
   * again, and that measure stands, since a long path is still being optimized then.
   */
  const measure = async (invoke: Invocation, bare: Invocation, rule: Sequential = WARM): Promise<Measured> => {
    const warmUp = async (invocations: number) => {
      for (let i = 0; i < invocations; i += 1) {
        await bare.run(bare.event());
        await invoke.run(invoke.event());
      }
    };
    const take = async (pairs: number, into: Measured) => {
      for (let pair = 0; pair < pairs; pair += 1) {
        if (pair % 2 === 0) {
          into.floor.push(await time(bare));
          into.samples.push(await time(invoke));
        } else {
          into.samples.push(await time(invoke));
          into.floor.push(await time(bare));
        }
      }
    };
    await warmUp(WARM_SCREEN.settle);
    const screen: Measured = { samples: [], floor: [], kmsCalls: 0 };
    await take(WARM_SCREEN.pairs, screen);
    if (clearance(pairedRatios(screen.samples, screen.floor), rule.target, WARM_SCREEN.margin) === 'below') {
      return screen;
    }
    const sampled = async () => {
      const result: Measured = { samples: [], floor: [], kmsCalls: 0 };
      while (needsMore(pairedRatios(result.samples, result.floor), rule)) {
        await take(result.samples.length === 0 ? rule.min : rule.batch, result);
      }
      return result;
    };
    // The screen's invocations count towards the full warm-up; its pairs, taken before it, are not kept.
    await warmUp(WARM_SETTLE - WARM_SCREEN.settle - WARM_SCREEN.pairs);
    const measured = await sampled();
    if (clearance(pairedRatios(measured.samples, measured.floor), rule.target, rule.margin) !== 'above') {
      return measured;
    }
    await warmUp(WARM_CONFIRM);
    return sampled();
  };
  /** A figure for reference: no target, so the screen's pairs (any ratio is clear of an infinite target). */
  const reference: Sequential = { ...WARM, target: Number.POSITIVE_INFINITY };

  if (subject === 'authorizer') {
    const { handler: authorizer } = await import('@lambdas/authorizer/handler');
    const authorize: Invocation = {
      event: () => benchAuthorizerEvent(minted.rawToken),
      run: (event) => authorizer(event as never, context as never),
    };
    results.authorizer = await measure(authorize, await floorOf('authorizer', authorize));
  } else {
    // A route is driven with its contract's sample request; the canned answers fit any sample.
    // Relative, so that esbuild bundles every contract and handler these patterns match (the route
    // list reads its folder from disk, which a bundle cannot).
    const route = Object.values(await import(`../contract/routes/${subject}.ts`)).find(isRouteContract);
    if (!route) throw new Error(`no function named ${subject}`);
    const module = (await import(`../lambdas/routes/${route.handler}.ts`)) as {
      handler: (event: unknown, context: unknown) => Promise<{ statusCode: number }>;
    };
    // A route that declares KMS calls gets a KMS in memory; one that does not and still calls it fails.
    const kms = route.keyUse ? cannedKms() : undefined;
    if (kms) {
      const { kms: client } = await import('@lambdas/crypto/kms-key-wrapper');
      client.config.requestHandler = kms.transport as never;
    }
    const sample = route.sample(route.signIn ? await signInWorld() : SAMPLE_WORLD);
    const pathParameters = sample.params ?? null;
    const event = {
      resource: route.path,
      path: route.path,
      httpMethod: route.method,
      headers: { 'Content-Type': 'application/json' },
      pathParameters,
      queryStringParameters: sample.query ?? null,
      body: sample.body === undefined ? null : JSON.stringify(sample.body),
      isBase64Encoded: false,
      requestContext: {
        domainName: apiHost,
        identity: { sourceIp: '203.0.113.7' },
        // A sign-in has no authorizer: the caller proves who it is in the request.
        ...(route.signIn
          ? {}
          : {
              authorizer: {
                kind: 'session',
                userId: 'user-1',
                issuedAt: now,
                scopes: 'read:secrets write:secrets admin',
                email,
              },
            }),
      },
    };
    const { answer: check, seals, opens } = await valueCiphers(() => module.handler(structuredClone(event), context));
    if (check.statusCode >= 300) throw new Error(`${route.handler} answered ${check.statusCode} in the bench`);
    const invoke: Invocation = { event: () => structuredClone(event), run: (fresh) => module.handler(fresh, context) };
    /**
     * What any function serving this contract does through zod, JSON and node:crypto, which the floor
     * does too: its request parsed and checked against the route's schemas, a value sealed or opened,
     * its answer written as JSON.
     */
    const answerBody = JSON.parse((check as unknown as { body: string }).body) as unknown;
    const { params, query, body } = route.schemas();
    // Sealing or opening a value is work any function keeping encrypted secrets does: one AES-GCM
    // operation of node:crypto under the project's key for each kind the route makes at all, as its
    // first invocation showed (a write seals a value, a read opens one, a copy such as a promote or a
    // restore does both). How many more it makes (a head's copy and its version's) is its own work.
    const valueWork = () => {
      if (opens > 0) decryptValue(BENCH_DATA_KEY.plaintext, secretAddress, sealed);
      if (seals > 0) encryptValue(BENCH_DATA_KEY.plaintext, secretAddress, SAMPLE_SECRET.value);
    };
    // Checking a sign-in's proof is work any function signing workloads in does, with the same libraries:
    // the workload token's signature and claims through jose against the issuer's keys, or the signed
    // request sent to STS and its answer read.
    const proofWork = route.signIn ? await signInProofWork(route.handler, sample.body) : undefined;
    const contractWork = () => {
      valueWork();
      params?.safeParse(pathParameters ?? {});
      query?.safeParse({});
      if (event.body !== null) body?.safeParse(JSON.parse(event.body));
      JSON.stringify(answerBody);
      return proofWork?.();
    };
    const floor = () => floorOf(route.handler, invoke, route.dataAccess.length > 0, contractWork);
    // The first invocation unwrapped the project's data key; every later one, within the five minutes
    // a function keeps it, makes no KMS call (the floor replays none, and a warm read costs none).
    const kmsBefore = kms?.calls.length ?? 0;
    const undeclared = kms?.calls.filter((call) => !route.keyUse?.includes(call as never)) ?? [];
    if (undeclared.length > 0)
      throw new Error(`${route.handler} called KMS ${undeclared.join(', ')}, not in its keyUse`);
    const measured = await measure(invoke, await floor());
    measured.kmsCalls = (kms?.calls.length ?? 0) - kmsBefore;
    if (measured.kmsCalls > 0) {
      throw new Error(
        `${route.handler}: its warm invocations made ${measured.kmsCalls} KMS call(s) (${kms?.calls[kmsBefore]} first), though the data key is kept five minutes`,
      );
    }
    results[route.handler] = measured;
    if (route.handler === 'create-token') {
      slotAnswer = answers.none;
      references["create-token of a user's first token"] = await measure(invoke, await floor(), reference);
      slotAnswer = answers.slots;
    }
  }
  writeFileSync(out, JSON.stringify({ results, references }));
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
