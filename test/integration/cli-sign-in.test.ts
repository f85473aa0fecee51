/**
 * Waits for a one-minute token to expire under `secrets run --watch`: started first (test/sequencer.js), so
 * that the wait runs beside other files rather than at the end.
 * @slow
 */
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LocalService } from '../../local/service';
import { buildCliOnce, type CliEnv, type CliResult, collect, runCli, spawnCli, startRecorder } from './cli';
import { call, createProject, sessionFor, startService, uniqueEmail } from './harness';

/**
 * The built `secrets` command signing in as a service account by itself against the local service:
 * with a workload's OIDC token (the local workload issuer's), a file holding one, GitHub Actions' ID
 * token (a local stand-in of its token endpoint) and AWS (the STS stand-in's key through the SDK's
 * default chain). It reads what the service account's access reaches; the token it signs in for never
 * reaches `run`'s command; a refusal is one line and exit 1.
 */

let service: LocalService;
let cliFile: string;
let work: string;
beforeAll(async () => {
  [service, cliFile] = await Promise.all([startService(), buildCliOnce()]);
  work = mkdtempSync(join(tmpdir(), 'cli-sign-in-'));
});
afterAll(async () => {
  await service.close();
  for (const folder of [work, dirname(cliFile)]) rmSync(folder, { recursive: true, force: true });
});

const SUBJECT = 'repo:acme/app:ref:refs/heads/main';
const AUDIENCE = 'secrets-service';
const ROLE = 'arn:aws:iam::000000000000:role/local-ci';
const REFUSED =
  /^error: sign-in as sa_[0-9A-Za-z]{16} refused: Unauthorized: Identity not accepted \(check the service account's trust rules\)\n$/;

/** Each project's owner session, by project id. */
const ownerOf = new Map<string, string>();

/** An owner's project with API_KEY in production and staging, and a service account that reads production. */
const world = async (rule: Record<string, unknown>) => {
  const session = await sessionFor(service, uniqueEmail('sa-cli'));
  const projectId = await createProject(service, session);
  ownerOf.set(projectId, session);
  for (const environment of ['production', 'staging']) {
    const put = await call(
      service,
      'PUT',
      `/api/v1/projects/${projectId}/environments/${environment}/secrets/API_KEY`,
      {
        token: session,
        json: { value: `${environment}-value` },
      },
    );
    expect(put.status).toBe(201);
  }
  const made = await call(service, 'POST', `/api/v1/projects/${projectId}/service-accounts`, {
    token: session,
    json: { name: 'deploy', access: { production: 'read' } },
  });
  expect(made.status).toBe(201);
  const serviceAccountId = made.body.data.id as string;
  const added = await call(
    service,
    'POST',
    `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}/trust-rules`,
    {
      token: session,
      json: rule,
    },
  );
  expect(added.status).toBe(201);
  const env: CliEnv = {
    HOME: mkdtempSync(join(work, 'home-')),
    SECRETS_API_URL: service.baseUrl,
    SECRETS_PROJECT: projectId,
    SECRETS_ENV: 'production',
    SECRETS_SERVICE_ACCOUNT: serviceAccountId,
  };
  return { projectId, serviceAccountId, env };
};

const oidcRule = (audience = AUDIENCE) => ({
  kind: 'oidc',
  issuer: service.workload.issuer,
  audience,
  subject: 'repo:acme/*:ref:refs/heads/main',
});

/** The command's environment as `node` prints it. */
const PRINT_ENV = ['run', '--', process.execPath, '-e', 'process.stdout.write(JSON.stringify(process.env))'];

/** No output of the command holds a service account's token. */
const noToken = (result: CliResult) => {
  expect(`${result.stdout}${result.stderr}`).not.toMatch(/svc_live_/);
};

/**
 * Reads production through each command, then checks what `run`'s command got: the secret, and no
 * variable of the command's sign-in, no `svc_live_` token and none of `hidden` (the workload's token).
 */
const readsAndHidesToken = async (env: CliEnv, hidden: readonly string[] = []) => {
  const got = await runCli(cliFile, ['get', 'API_KEY'], env);
  expect({ code: got.code, stdout: got.stdout, stderr: got.stderr }).toEqual({
    code: 0,
    stdout: 'production-value',
    stderr: '',
  });
  const exported = await runCli(cliFile, ['export', '--format', 'json'], env);
  expect(exported.code).toBe(0);
  expect(JSON.parse(exported.stdout)).toEqual({ API_KEY: 'production-value' });
  // The service account's access stops at production.
  const staging = await runCli(cliFile, ['get', 'API_KEY', '-e', 'staging'], env);
  expect(staging.code).toBe(1);
  expect(staging.stderr).toMatch(/^error: Forbidden/);
  const ran = await runCli(cliFile, PRINT_ENV, env);
  expect(ran.code).toBe(0);
  const child = JSON.parse(ran.stdout) as Record<string, string>;
  expect(child.API_KEY).toBe('production-value');
  for (const name of [
    'SECRETS_TOKEN',
    'SECRETS_SERVICE_ACCOUNT',
    'SECRETS_AUTH',
    'SECRETS_OIDC_TOKEN',
    'SECRETS_OIDC_TOKEN_FILE',
    'SECRETS_OIDC_AUDIENCE',
  ]) {
    expect(child).not.toHaveProperty(name);
  }
  const childText = JSON.stringify(child);
  expect(childText).not.toMatch(/svc_live_/);
  for (const secret of hidden) expect(childText).not.toContain(secret);
  for (const result of [got, exported, staging, ran]) noToken(result);
  return child;
};

/** A refused sign-in: exit 1, the one line, nothing on standard output, no token anywhere. */
const refused = (result: CliResult) => {
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 1, stdout: '' });
  expect(result.stderr).toMatch(REFUSED);
  noToken(result);
};

describe('SECRETS_OIDC_TOKEN', () => {
  it('signs in with the workload token, reads the secrets, and run’s command gets no token', async () => {
    const { env } = await world(oidcRule());
    const workload = await service.workload.issue({ sub: SUBJECT, aud: AUDIENCE });
    await readsAndHidesToken({ ...env, SECRETS_OIDC_TOKEN: workload }, [workload]);
  });

  it('is refused in one line, exit 1, when no rule accepts the token', async () => {
    const { env } = await world(oidcRule());
    const workload = await service.workload.issue({ sub: 'repo:evil/app:ref:refs/heads/main', aud: AUDIENCE });
    for (const args of [['get', 'API_KEY'], ['export'], PRINT_ENV]) {
      const result = await runCli(cliFile, args, { ...env, SECRETS_OIDC_TOKEN: workload });
      refused(result);
      expect(result.stderr).not.toContain(workload);
    }
  });

  it('prefers SECRETS_TOKEN when both are set', async () => {
    const { env } = await world(oidcRule());
    const result = await runCli(cliFile, ['get', 'API_KEY'], { ...env, SECRETS_TOKEN: 'svc_live_not-a-token' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Unauthorized: Missing or invalid authentication token/);
    expect(result.stderr).not.toContain('svc_live_not-a-token');
  });
});

describe('SECRETS_OIDC_TOKEN_FILE', () => {
  it('reads the token from the file (trimmed), and run’s command gets no token', async () => {
    const { env } = await world(oidcRule());
    const workload = await service.workload.issue({ sub: SUBJECT, aud: AUDIENCE });
    const file = join(work, `token-${Date.now()}`);
    writeFileSync(file, `${workload}\n`);
    await readsAndHidesToken({ ...env, SECRETS_OIDC_TOKEN_FILE: file }, [workload]);
  });

  it('says when the file cannot be read (exit 1) and is refused for a token no rule accepts', async () => {
    const { env } = await world(oidcRule('another-audience'));
    const missing = await runCli(cliFile, ['get', 'API_KEY'], { ...env, SECRETS_OIDC_TOKEN_FILE: join(work, 'none') });
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 1,
      stderr: `error: cannot read SECRETS_OIDC_TOKEN_FILE ${join(work, 'none')}: no such file\n`,
    });
    const file = join(work, `token-other-${Date.now()}`);
    writeFileSync(file, await service.workload.issue({ sub: SUBJECT, aud: AUDIENCE }));
    refused(await runCli(cliFile, ['get', 'API_KEY'], { ...env, SECRETS_OIDC_TOKEN_FILE: file }));
  });
});

/** A stand-in of GitHub Actions' ID token endpoint: answers a workload token for the audience asked, recording each request. */
const startGithub = async () => {
  const requests: { url: URL; headers: IncomingHttpHeaders }[] = [];
  const requestToken = `gh-request-${Date.now()}`;
  const server: Server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    requests.push({ url, headers: incoming.headers });
    if (incoming.headers.authorization !== `bearer ${requestToken}`) {
      outgoing.writeHead(401).end();
      return;
    }
    service.workload.issue({ sub: SUBJECT, aud: url.searchParams.get('audience') ?? 'none' }).then((value) => {
      outgoing.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ value }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const env: CliEnv = {
    ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${port}/_apis/token?api-version=2.0`,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
  };
  return {
    env,
    requests,
    /** The audiences asked for, in order. */
    audiences: () => requests.map((request) => request.url.searchParams.get('audience')),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

describe('GitHub Actions', () => {
  let github: Awaited<ReturnType<typeof startGithub>>;
  beforeAll(async () => {
    github = await startGithub();
  });
  afterAll(async () => {
    await github.close();
  });

  it('asks GitHub for an ID token of the default audience, secrets-service, and run’s command gets no token', async () => {
    const { env } = await world(oidcRule());
    const before = github.requests.length;
    const child = await readsAndHidesToken({ ...env, ...github.env });
    const asked = github.requests.slice(before);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.map((request) => request.url.searchParams.get('audience'))).toEqual(asked.map(() => AUDIENCE));
    // GitHub's URL keeps its own query, and the request token goes as GitHub asks for it.
    expect(asked.map((request) => request.url.searchParams.get('api-version'))).toEqual(asked.map(() => '2.0'));
    expect(asked[0]?.headers.authorization).toBe(`bearer ${github.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN}`);
    // GitHub's variables are GitHub's: the steps a command runs may ask for ID tokens of their own.
    expect(child.ACTIONS_ID_TOKEN_REQUEST_URL).toBe(github.env.ACTIONS_ID_TOKEN_REQUEST_URL);
  });

  it('asks for SECRETS_OIDC_AUDIENCE when set', async () => {
    const { env } = await world(oidcRule('https://secrets.example.com'));
    const before = github.requests.length;
    const got = await runCli(cliFile, ['get', 'API_KEY'], {
      ...env,
      ...github.env,
      SECRETS_OIDC_AUDIENCE: 'https://secrets.example.com',
    });
    expect({ code: got.code, stdout: got.stdout, stderr: got.stderr }).toEqual({
      code: 0,
      stdout: 'production-value',
      stderr: '',
    });
    expect(github.audiences().slice(before)).toEqual(['https://secrets.example.com']);
  });

  it('is refused in one line when the rule names another audience than the one asked', async () => {
    const { env } = await world(oidcRule('another-audience'));
    const result = await runCli(cliFile, ['export'], { ...env, ...github.env });
    refused(result);
    expect(result.stderr).not.toContain(github.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN ?? 'none');
  });
});

describe('SECRETS_AUTH=aws', () => {
  /** The STS stand-in's key as the SDK's environment credentials; no profile, no instance metadata. */
  const awsEnv = (): CliEnv => ({
    SECRETS_AUTH: 'aws',
    AWS_ACCESS_KEY_ID: service.sts.key.accessKeyId,
    AWS_SECRET_ACCESS_KEY: service.sts.key.secretAccessKey,
    AWS_PROFILE: undefined,
    AWS_REGION: undefined,
    AWS_DEFAULT_REGION: undefined,
    AWS_CONFIG_FILE: join(work, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(work, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
  });

  it('signs in with the AWS default credentials, reads the secrets, and run’s command gets no token', async () => {
    const { env } = await world({ kind: 'aws', principals: [ROLE] });
    // AWS's variables are the job's, not the command's: they reach the command as any other.
    await readsAndHidesToken({ ...env, ...awsEnv() });
  });

  it('is refused in one line when no rule names the role', async () => {
    const { env } = await world({ kind: 'aws', principals: ['arn:aws:iam::000000000000:role/other'] });
    refused(await runCli(cliFile, ['get', 'API_KEY'], { ...env, ...awsEnv() }));
  });
});

describe('usage', () => {
  it('is a usage error (exit 2) when the service account has nothing to sign in with', async () => {
    const { env } = await world(oidcRule());
    const result = await runCli(cliFile, ['get', 'API_KEY'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: SECRETS_SERVICE_ACCOUNT is set but nothing to sign in with/);
  });
});

describe('secrets run --watch', () => {
  /** Waits, with a generous limit, until `check` holds; a busy machine may be slow, never wrong. */
  const until = async (check: () => boolean, what: string): Promise<void> => {
    for (let waited = 0; !check(); waited += 200) {
      if (waited > 150_000) throw new Error(`gave up waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it('keeps watching past its first token’s expiry, signing in again before each token runs out', async () => {
    const { projectId, env } = await world(oidcRule());
    const recorded = await startRecorder(service.port);
    const log = join(work, `watch-${Date.now()}`);
    const workload = await service.workload.issue({ sub: SUBJECT, aud: AUDIENCE, expiresIn: 600 });
    const wrapper = spawnCli(
      cliFile,
      [
        'run',
        '--watch',
        '--watch-interval',
        '5s',
        '--',
        process.execPath,
        '-e',
        `require('fs').appendFileSync(${JSON.stringify(log)}, process.pid + ' ' + process.env.API_KEY + '\\n');
           process.on('SIGTERM', () => process.exit(0));
           setInterval(() => {}, 1000);`,
      ],
      { ...env, SECRETS_API_URL: recorded.url, SECRETS_OIDC_TOKEN: workload, SECRETS_SIGN_IN_TTL: '60s' },
    );
    const output = collect(wrapper);
    const exited = once(wrapper, 'exit');
    wrapper.stdin?.end();
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
    /** The value each command started with, in order. */
    const started = () => lines().map((line) => line.slice(line.indexOf(' ') + 1));
    const signIns = () => recorded.requests.filter((request) => request.url === '/api/v1/auth/oidc');
    try {
      await until(() => started().length === 1, 'the command to start');
      // A 60-second token is renewed with 30 s left: a third sign-in means the first token has expired.
      await until(() => signIns().length >= 3, 'a third sign-in');
      expect(signIns().map((request) => JSON.parse(request.body).ttlSeconds)).toEqual(signIns().map(() => 60));
      const reply = await call(
        service,
        'PUT',
        `/api/v1/projects/${projectId}/environments/production/secrets/API_KEY`,
        {
          token: ownerOf.get(projectId) ?? '',
          json: { value: 'changed-value' },
        },
      );
      expect(reply.status).toBe(200);
      await until(() => started().includes('changed-value'), 'the command to start again with the new value');
      expect(started()).toEqual(['production-value', 'changed-value']);
      const checks = recorded.requests.filter((request) => request.url.endsWith('/export'));
      const bearers = new Set(checks.map((request) => request.headers.authorization));
      expect(bearers.size).toBeGreaterThanOrEqual(3);
      // Renewed before it ran out: the service refused no request for an expired token.
      const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events`, {
        token: ownerOf.get(projectId) ?? '',
      });
      const types = trail.body.data.map((event: { type: string }) => event.type);
      expect(types).toContain('service_account.signed_in');
      expect(types).not.toContain('service_account.denied');
      wrapper.kill('SIGTERM');
      await exited;
      // Every check succeeded: none said it could not check, and nothing showed a token.
      expect(output().stderr).toBe('');
      expect(output().stdout).not.toMatch(/svc_live_/);
    } finally {
      wrapper.kill('SIGKILL');
      // A command the killed wrapper left running.
      for (const line of lines()) {
        try {
          process.kill(Number(line.split(' ')[0]), 'SIGKILL');
        } catch {
          // Already gone: what a passing test leaves.
        }
      }
      await recorded.stop();
    }
  }, 240_000);
});
