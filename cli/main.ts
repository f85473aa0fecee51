import './no-inspector';
import { readFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { type ChangeRequestStatus, changeRequestStatuses } from '@contract/change-requests';
import { normalizeEmail } from '@contract/email';
import { ErrorText } from '@contract/errors';
import {
  DEFAULT_SHARE_HOURS,
  DEFAULT_SHARE_VIEWS,
  MAX_PATCH_CHANGES,
  MAX_SHARE_HOURS,
  MAX_SHARE_RECIPIENTS,
  MAX_SHARE_VIEWS,
  MIN_SHARE_HOURS,
} from '@contract/limits';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { approvalsLeft, type ChangeRequest, describeRequest, listRows, restoreEntry, setName } from './change-requests';
import {
  createClient,
  dataOf,
  parseShareLink,
  type SecretComparison,
  SecretsApiError,
  type SecretsClient,
  SecretsNetworkError,
  SignInRefusedError,
  shareLink,
} from './client';
import { parseDuration } from './duration';
import { parseEnvFile } from './env-file';
import { CommandError, ExplainedError, fileProblem, UsageError } from './errors';
import { type FallbackKey, fallbackKey, readSnapshot, type SnapshotSource, writeSnapshot } from './fallback';
import { dollarEscapedNames, dotenvOnlyNames, EXPORT_FORMATS, type ExportFormat, formatExport } from './formats';
import { createMount, MOUNT_FORMATS, type MountFormat, mountFormatOf } from './mount';
import { changeRequestId, secretName, servedSecrets } from './names';
import { version } from './package.json';
import { runChild, superviseChild } from './run-child';
import { injectableSecrets } from './run-env';
import { shareValue } from './share-value';
import { commandSignIn, hold, redact, refusalLine, SIGN_IN_VARIABLES } from './sign-in';
import { nearestName } from './suggest';
import { readTaggedExport } from './tagged-export';
import {
  type Credentials,
  checkEnvironment,
  checkTarget,
  findSetup,
  homeFolder,
  resolveCredentials,
  resolveDashboardUrl,
  resolveProject,
  resolveTarget,
  revokeSetup,
  SETUP_FILE,
  type Target,
  type TargetFlags,
  trustSetup,
  writeSetup,
} from './target';
import { plural, printable, shellWord } from './text';

/**
 * Variables of the command itself, which a child of `run` does not need and is not given: its token, its
 * fallback key, and how it signs in as a service account (the token it signs in for is never in its
 * environment). GitHub Actions' ACTIONS_ID_TOKEN_REQUEST_URL and _TOKEN are GitHub's, not the command's:
 * every step of the job has them, and tools the command may run (Terraform, cloud CLIs) ask for their
 * own ID tokens with them, so they are passed on.
 */
const OWN_VARIABLES = [
  'SECRETS_TOKEN',
  'SECRETS_FALLBACK_PASSPHRASE',
  'SECRETS_FALLBACK_KEY_FILE',
  ...SIGN_IN_VARIABLES,
];

const ENVIRONMENT_HELP = `
Environment:
  SECRETS_API_URL              the API's base URL (the stack's ApiUrl, or npm start's address)
  SECRETS_TOKEN                an API token (svc_live_…); never a flag, so it stays out of shell history
  SECRETS_SERVICE_ACCOUNT      without SECRETS_TOKEN: sign in as this service account (sa_…), by itself,
                               with the first of these that is set (a trust rule of it must accept it):
    SECRETS_AUTH=aws             the AWS SDK's default credentials (AWS_PROFILE, a role of Lambda, ECS, EC2…);
                                 STS region: AWS_REGION, else the global endpoint
    SECRETS_OIDC_TOKEN           a workload's OIDC token (JWT)
    SECRETS_OIDC_TOKEN_FILE      a file holding one, read at each sign-in (Kubernetes' projected token)
    GitHub Actions               its ID token (ACTIONS_ID_TOKEN_REQUEST_URL/_TOKEN: permissions: id-token: write),
                                 for the audience SECRETS_OIDC_AUDIENCE (default: secrets-service)
    (SECRETS_AUTH=oidc or github-actions forces one of the last.) The token lives 15 minutes
    (SECRETS_SIGN_IN_TTL: 60s to 1h) and is signed in for again before it expires; it never reaches
    run's command.
  SECRETS_PROJECT, SECRETS_ENV the project and environment when no flag names them
  SECRETS_FALLBACK_PASSPHRASE  the passphrase of run --fallback's encrypted snapshot (16 characters or more)
  SECRETS_FALLBACK_KEY_FILE    instead, a file of at least 32 random bytes as its key
  SECRETS_DASHBOARD_URL        the dashboard a share's link opens (the stack's DashboardUrl);
                               default: where the API says its dashboard is

Without flags or variables, the project and environment come from the nearest .secrets.json
(written by \`secrets setup\`) in this folder or above it, up to the repository's root (the folder
holding .git) or the home folder, whichever comes first; and only once you trust it (\`secrets trust\`).

Exit codes: 0 success; 1 the service refused (a sign-in too) or failed; 2 a usage error; run: the command's own;
diff, as diff(1): 0 the same, 1 different, 2 a usage error or the service refused or failed.`;

const wholeNumber =
  (least: number, most = Number.POSITIVE_INFINITY) =>
  (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < least || Number(text) > most) {
      throw new InvalidArgumentError(
        `a whole number from ${least}${most === Number.POSITIVE_INFINITY ? '' : ` to ${most}`}`,
      );
    }
    return Number(text);
  };

/** Commander's way to take a flag many times: each use adds to the list. */
const repeated = (text: string, previous: readonly string[] = []): string[] => [...previous, text];

interface CommonOptions extends TargetFlags {
  readonly timeout: string;
}

/** The options every command that talks to the API takes. */
const withTarget = (command: Command): Command =>
  command
    .option('-p, --project <id>', 'project id (else SECRETS_PROJECT, else .secrets.json)')
    .option('-e, --env <name>', 'environment (else SECRETS_ENV, else .secrets.json)')
    .option('--timeout <duration>', 'time to wait for each answer, e.g. 10s', '10s');

/** A client with `credentials`: its token, or the service account it signs in as when it first asks. */
const clientFor = (credentials: Credentials, timeout: string): SecretsClient => {
  const timeoutMs = parseDuration(timeout, '--timeout');
  const { apiUrl } = credentials;
  if (credentials.serviceAccount === undefined) return createClient({ apiUrl, token: credentials.token, timeoutMs });
  return createClient({ apiUrl, timeoutMs, signIn: commandSignIn(credentials.serviceAccount, { apiUrl, timeoutMs }) });
};

/** A client for a command about the caller rather than a project (shares), from the environment. */
const connectAccount = (options: { readonly timeout: string }): SecretsClient =>
  clientFor(resolveCredentials(process.env), options.timeout);

/**
 * The dashboard a share's link opens: `SECRETS_DASHBOARD_URL`, else where the API's document says its
 * dashboard is, else (a service whose document does not say) the API's own base URL.
 */
const dashboardFor = async (client: SecretsClient, named: string | undefined): Promise<string> =>
  (named ?? (await client.dashboardUrl()) ?? resolveCredentials(process.env).apiUrl).replace(/\/+$/, '');

/** A command's client, the environment it works on, and where the API is (for a message). */
interface Connection {
  readonly client: SecretsClient;
  readonly target: Target;
  readonly apiUrl: string;
}

/** The client and target of a command, from its options and the environment. */
const connect = (options: CommonOptions): Connection => {
  const credentials = resolveCredentials(process.env);
  const target = resolveTarget(options, process.env, process.cwd());
  return { client: clientFor(credentials, options.timeout), target, apiUrl: credentials.apiUrl };
};

const out = (text: string) => process.stdout.write(text);
const note = (text: string) => process.stderr.write(text);

const readStandardInputBytes = async (): Promise<Buffer> => {
  if (process.stdin.isTTY) note('Type the value, then Ctrl-D:\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const readStandardInput = async (): Promise<string> => (await readStandardInputBytes()).toString('utf8');

const table = (rows: readonly (readonly string[])[]): string => {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map(
      (row) =>
        `${row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
};

const who = (person: { email: string | null; userId: string }) => person.email ?? person.userId;

/** What the caller may list that a mistyped name was likely meant to be; nothing when the list cannot be read. */
const didYouMean = async (name: string, list: () => Promise<readonly string[]>): Promise<string | undefined> => {
  const near = nearestName(name, await list().catch(() => []));
  return near === undefined ? undefined : `Did you mean ${near}?`;
};

/**
 * Runs `work`; when the API answers that the environment or the named secret is not there, the error
 * says which near name the caller may have meant, from the names they may list.
 */
const withNearNames = async <T>(
  client: SecretsClient,
  target: Target,
  secret: string | undefined,
  work: () => Promise<T>,
): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof SecretsApiError) || error.status !== 404) throw error;
    const hint =
      error.error === ErrorText.environmentNotFound
        ? await didYouMean(target.environment, async () =>
            (await client.environments(target.projectId)).map((entry) => entry.name),
          )
        : error.error === ErrorText.secretNotFound && secret !== undefined
          ? await didYouMean(secret, async () =>
              (await client.list(target.projectId, target.environment)).map((entry) => entry.name),
            )
          : undefined;
    throw hint ? new ExplainedError(error.error, hint) : error;
  }
};

/**
 * How a message names a project: its name (JSON-quoted, so that no character of it can move the
 * terminal) and id, or its id alone when the token may not list projects (one limited to projects, or
 * without read:secrets) or the caller is no member.
 */
const projectLabel = async (client: SecretsClient, projectId: string): Promise<string> => {
  const projects = await dataOf(client.api.GET('/api/v1/projects')).catch((error: unknown) => {
    if (error instanceof SecretsApiError && error.status === 403) return [];
    throw error;
  });
  const name = projects.find((entry) => entry.projectId === projectId)?.name;
  return name === undefined ? projectId : `${JSON.stringify(name)} (${projectId})`;
};

/** Says on standard error, before a write, where it goes: the project by name and id, and the environment. */
const announceWrite = (label: string, target: Target, doing = 'Writing') =>
  note(`${doing} to project ${label} / ${target.environment}\n`);

/**
 * Runs a direct write; when the environment is protected, the API's refusal gets a second line: the
 * `secrets changes propose` (with `proposal`'s flags) that makes the same change through a change request.
 */
const orPropose = async <T>(
  target: Target,
  proposal: { readonly flags: string; readonly input?: string },
  work: () => Promise<T>,
): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof SecretsApiError) || error.error !== ErrorText.environmentProtected) throw error;
    throw new ExplainedError(
      error.error,
      `${target.environment} changes only through change requests: propose this one with \`secrets changes propose ${proposal.flags}\`${proposal.input ?? ''}.`,
    );
  }
};

/** The entries of a `.env` file to write or propose; a file that cannot be read, or holds none, is refused. */
const readEnvEntries = (file: string): Record<string, string> => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CommandError(`cannot read ${file}: ${fileProblem(error)}`);
  }
  const entries = parseEnvFile(text, file);
  if (Object.keys(entries).length === 0) throw new CommandError(`${file} holds no NAME=value line`);
  return entries;
};

/** Which version is current, after a write at `--expect-version` was refused: from the secret's history. */
const currentVersion = async (client: SecretsClient, target: Target, name: string, expected: number) => {
  const [newest] = await client.history(target.projectId, target.environment, name).catch(() => []);
  if (newest === undefined) return undefined;
  return newest.deleted
    ? `${name} is deleted (its last version is ${newest.version}): --expect-version 0 writes it again.`
    : `${name} is at version ${newest.version}, not ${expected}.`;
};

/** The recipients of `--recipient`, as the service keeps e-mail addresses; a malformed one is a usage error. */
const shareRecipients = (given: readonly string[]): string[] | undefined => {
  if (given.length === 0) return undefined;
  const recipients = [
    ...new Set(
      given.map((text) => {
        const email = normalizeEmail(text);
        if (!email) throw new UsageError(`--recipient ${JSON.stringify(text)} is not an e-mail address`);
        return email;
      }),
    ),
  ];
  if (recipients.length > MAX_SHARE_RECIPIENTS) {
    throw new UsageError(`a share names at most ${MAX_SHARE_RECIPIENTS} recipients; ${recipients.length} were given`);
  }
  return recipients;
};

const SHARE_HELP = `
Reads the value from standard input: all of it, as UTF-8 text, with one trailing line break taken off
(so \`echo "$X" | secrets share\` shares $X; printf %s keeps every byte). It is encrypted here, as the
dashboard does, and the service stores only the ciphertext: the key is in the link's fragment (after #),
which reaches no server. Prints the link alone on standard output; the rest goes to standard error.
Without --recipient, anyone signed in who has the link can reveal it. Needs a token with write:secrets.`;

const SETUP_HELP = `
Checks first, with SECRETS_API_URL and SECRETS_TOKEN (read:secrets), that the project has that
environment; writes nothing when it does not. Trusts the file it writes (see secrets trust --help).`;

const TRUST_HELP = `
A .secrets.json is followed only once you have trusted it, and only while it holds the bytes you
trusted: one you did not write (left in a shared folder, committed to a repository) could otherwise
choose the project your secrets are written to. Read it, then trust it. The list of trusted files is
yours alone: $XDG_CONFIG_HOME/secrets/trusted.json (default ~/.config/secrets/trusted.json), mode 0600.
Needs no token: nothing is sent.`;

const REVEAL_HELP = `
With -, the link is read from standard input (secrets reveal - < link.txt), which keeps its key out
of the process list and shell history. Spends one of the share's views and prints its value to
standard output exactly, without a line break added; who shared it and the views left go to standard error. A link without its key (the part after #)
is refused before anything is sent, as is a key cut short, so no view is spent. Needs a token with
read:secrets.`;

const CHANGES_HELP = `
A protected environment changes only through change requests: a token proposes one (write:secrets),
and another owner or admin approves it in the dashboard (the environment's Changes tab), which applies
it at once, all or nothing. Without a subcommand: list.`;

const PROPOSE_HELP = `
A value never comes on the command line: --set NAME reads it from standard input, byte for byte
(printf %s "$X" | secrets changes propose --set NAME), and --from-env-file reads a .env file as
secrets import does. --delete and --restore may be added to either, and take several names. Prints the
request's id alone on standard output; the approvals it waits for go to standard error. Needs a token
with write:secrets.`;

/** The paths of a change request's routes, for the typed client. */
const requestParams = (target: Target, id: string) => ({
  params: { path: { projectId: target.projectId, environment: target.environment, id } },
});

/** What a step on a change request answers: its new state in a few words. */
const stepOutcome = (request: ChangeRequest): string =>
  request.status === 'open'
    ? `approved; waiting for ${plural(approvalsLeft(request), 'more approval')}`
    : request.status === 'applied'
      ? 'approved and applied'
      : request.status;

/**
 * Adds `secrets changes` to `program`: an environment's change requests, listed, shown, proposed,
 * approved, rejected, cancelled. Made with `program.command` so that it and its subcommands inherit the
 * program's settings (exit codes, suggestions, help).
 */
const addChangesCommands = (program: Command): void => {
  const changes = program
    .command('changes')
    .description('the change requests of a protected environment: list, show, propose, approve, reject, cancel')
    .addHelpText('after', CHANGES_HELP);

  withTarget(
    changes
      .command('list', { isDefault: true })
      .description('list the environment’s change requests, newest first')
      .addOption(new Option('--status <status>', 'only the requests of this status').choices(changeRequestStatuses))
      .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table')),
  ).action(async (options: CommonOptions & { status?: ChangeRequestStatus; format: 'table' | 'json' }) => {
    const { client, target } = connect(options);
    const requests = await withNearNames(client, target, undefined, () =>
      dataOf(
        client.api.GET('/api/v1/projects/{projectId}/environments/{environment}/change-requests', {
          params: {
            path: { projectId: target.projectId, environment: target.environment },
            ...(options.status !== undefined && { query: { status: options.status } }),
          },
        }),
      ),
    );
    out(options.format === 'json' ? `${JSON.stringify(requests, null, 2)}\n` : table(listRows(requests, Date.now())));
  });

  withTarget(
    changes
      .command('show')
      .description('show a change request and its changes by name')
      .argument('<id>', 'the request’s id, chg_…')
      .option('--values', 'also the values it proposes (a read recorded in the audit trail)')
      .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text')),
  ).action(async (id: string, options: CommonOptions & { values?: boolean; format: 'text' | 'json' }) => {
    changeRequestId(id);
    const { client, target } = connect(options);
    const request = await withNearNames(client, target, undefined, () =>
      dataOf(
        client.api.GET(
          '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}',
          requestParams(target, id),
        ),
      ),
    );
    // Only a set carries a value: a request of none has nothing to read, and no read to record.
    const values =
      options.values && request.changes.some((change) => change.action === 'set')
        ? await dataOf(
            client.api.GET(
              '/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/values',
              requestParams(target, id),
            ),
          )
        : undefined;
    if (options.format === 'json') {
      out(`${JSON.stringify(values === undefined ? request : { ...request, values }, null, 2)}\n`);
    } else {
      const { heading, fields, changes: lines } = describeRequest(request, Date.now(), values);
      out(`${heading}\n${table(fields)}\n${lines.map((line) => `  ${line}\n`).join('')}`);
    }
    if (values !== undefined) note('The read of these values is recorded in the project’s audit trail.\n');
  });

  withTarget(
    changes
      .command('propose')
      .description('propose a change of the environment’s secrets, to be approved')
      .option('--note <text>', 'why, for whoever approves it')
      .addOption(new Option('--set <name>', 'a secret to set; its value is standard input').conflicts('fromEnvFile'))
      .option('--from-env-file <file>', 'set every NAME=value of a .env file')
      .option('--delete <name...>', 'secrets to delete')
      .option('--restore <name:version...>', 'earlier versions to write again, e.g. API_KEY:2')
      .addHelpText('after', PROPOSE_HELP),
  ).action(
    async (
      options: CommonOptions & {
        note?: string;
        set?: string;
        fromEnvFile?: string;
        delete?: string[];
        restore?: string[];
      },
    ) => {
      const name = options.set === undefined ? undefined : setName(options.set);
      const deletes = (options.delete ?? []).map(secretName);
      const restores = (options.restore ?? []).map(restoreEntry);
      if (name === undefined && options.fromEnvFile === undefined && deletes.length + restores.length === 0) {
        throw new UsageError(
          'nothing to propose: give --set NAME, --from-env-file FILE, --delete NAME or --restore NAME:VERSION',
        );
      }
      const { client, target } = connect(options);
      const fromFile = options.fromEnvFile === undefined ? undefined : readEnvEntries(options.fromEnvFile);
      const count =
        (name === undefined ? 0 : 1) + Object.keys(fromFile ?? {}).length + deletes.length + restores.length;
      if (count > MAX_PATCH_CHANGES) {
        throw new CommandError(
          `a change request carries at most ${MAX_PATCH_CHANGES} changes; ${count} were given: nothing was proposed`,
        );
      }
      announceWrite(await projectLabel(client, target.projectId), target, 'Proposing');
      const set = name === undefined ? fromFile : { [name]: await readStandardInput() };
      const request = await withNearNames(client, target, undefined, () =>
        dataOf(
          client.api.POST('/api/v1/projects/{projectId}/environments/{environment}/change-requests', {
            params: { path: { projectId: target.projectId, environment: target.environment } },
            body: {
              ...(set !== undefined && { set }),
              ...(deletes.length > 0 && { delete: deletes }),
              ...(restores.length > 0 && { restore: restores }),
              ...(options.note !== undefined && { note: options.note }),
            },
          }),
        ),
      );
      out(`${request.id}\n`);
      note(`${request.id}: waiting for ${plural(approvalsLeft(request), 'approval')}\n`);
    },
  );

  const steps = [
    { step: 'approve', does: 'approve a change request: applied once its approvals are all given (a person only)' },
    { step: 'reject', does: 'reject a change request: nothing is written (a person only)' },
    { step: 'cancel', does: 'withdraw a change request you proposed: nothing is written' },
  ] as const;
  for (const { step, does } of steps) {
    withTarget(changes.command(step).description(does).argument('<id>', 'the request’s id, chg_…')).action(
      async (id: string, options: CommonOptions) => {
        changeRequestId(id);
        const { client, target } = connect(options);
        const request = await withNearNames(client, target, undefined, () => takeStep(client, step, target, id)).catch(
          (error: unknown) => {
            if (!(error instanceof SecretsApiError) || error.error !== ErrorText.sessionRequired) throw error;
            throw new ExplainedError(
              error.error,
              `Only a person signed in to the dashboard approves or rejects a change request: open it on the Changes tab of ${target.environment}.`,
            );
          },
        );
        out(`${id}: ${stepOutcome(request)}\n`);
      },
    );
  }
};

/** Approves, rejects or cancels a change request: one route each. */
const takeStep = (client: SecretsClient, step: 'approve' | 'reject' | 'cancel', target: Target, id: string) => {
  const params = requestParams(target, id);
  switch (step) {
    case 'approve':
      return dataOf(
        client.api.POST('/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/approve', params),
      );
    case 'reject':
      return dataOf(
        client.api.POST('/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/reject', params),
      );
    case 'cancel':
      return dataOf(
        client.api.POST('/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/cancel', params),
      );
  }
};

/** Two environments of a project, from one to the other (`diff`, `promote`), each of an environment's form. */
const environmentPair = (from: string, to: string) => {
  const pair = { from: checkEnvironment(from), to: checkEnvironment(to) };
  if (pair.from === pair.to) throw new UsageError(`give two environments: ${from} is named twice`);
  return pair;
};

/**
 * Runs `work` about two environments; when the API answers that an environment is not there, or that a
 * name is not live in `from`, the error says which, and the near name the caller may have meant.
 */
const withNearPair = async <T>(
  client: SecretsClient,
  projectId: string,
  pair: { readonly from: string; readonly to: string },
  names: readonly string[],
  work: () => Promise<T>,
): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof SecretsApiError) || error.status !== 404) throw error;
    const missingOf = async (wanted: readonly string[], list: () => Promise<readonly string[]>) => {
      const known = await list().catch(() => undefined);
      const missing = known && wanted.find((name) => !known.includes(name));
      if (known === undefined || missing === undefined) return undefined;
      const near = nearestName(missing, known);
      return near ? `Did you mean ${near}?` : undefined;
    };
    const hint =
      error.error === ErrorText.environmentNotFound
        ? await missingOf([pair.from, pair.to], async () =>
            (await client.environments(projectId)).map((entry) => entry.name),
          )
        : error.error === ErrorText.secretNotFound
          ? await missingOf(names, async () => (await client.list(projectId, pair.from)).map((entry) => entry.name))
          : undefined;
    throw hint ? new ExplainedError(error.error, hint) : error;
  }
};

/** How `diff` shows a comparison's status, in the environments' own names. */
const statusWords = (status: SecretComparison['status'], pair: { readonly from: string; readonly to: string }) =>
  status === 'only-from' ? `only in ${pair.from}` : status === 'only-to' ? `only in ${pair.to}` : status;

const DIFF_HELP = `
Compares by the values' digests: no value is read, printed or recorded as read. Prints each secret of
either environment with its status (same, different, only in one) and its version in each (- for none),
then a count on standard error. Exits 0 when both hold the same secrets with the same values, 1 when
they differ, 2 when it could not tell (a usage error, or the service refused or failed), as diff(1)
does. Needs a token with read:secrets, and read access to both environments.`;

const PROMOTE_HELP = `
Copies the named secrets' current values from FROM into TO as one change: all of them, or none (at most
${MAX_PATCH_CHANGES}). Each becomes its next version in TO; the values never leave the service. Says on
standard error first the project (by name and id) and the environment it writes to, then prints each
secret written at its new version. Where TO is protected nothing is written: the change is proposed as
a change request of TO (with --note, else "Promoted from FROM"), whose id is printed alone, and it waits
for its approvals as any other. Needs a token with write:secrets, read access to FROM and write access
to TO.`;

const RUN_HELP = `
Exits with the command’s exit code, or 128 + the number of the signal that ended it; 127 when it is not found, 126 when it cannot be run. SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and SIGWINCH are passed on.
The command does not get SECRETS_TOKEN, SECRETS_FALLBACK_PASSPHRASE, SECRETS_FALLBACK_KEY_FILE, nor the
service account's sign-in variables (SECRETS_SERVICE_ACCOUNT, SECRETS_AUTH, SECRETS_OIDC_TOKEN,
SECRETS_OIDC_TOKEN_FILE, SECRETS_OIDC_AUDIENCE, SECRETS_SIGN_IN_TTL) or the token it signed in for.
--watch asks with the export's ETag, so a check that finds no change reads no value and records no read;
a failed check leaves the command running and says so. --mount writes the secrets to a file created anew
(never an existing one, never through a link), gives its absolute path as SECRETS_MOUNT_PATH, updates
it on a change before the restart or signal, and removes it when the command ends.`;

/** The shortest time between two `--watch` checks: more often would only load the service. */
const LEAST_WATCH_INTERVAL_MS = 5000;

/** `run --watch`'s timing and signal, checked before anything is read or started. */
const watchOptions = (options: { watchInterval: string; watchGrace: string; watchSignal?: string }) => {
  const intervalMs = parseDuration(options.watchInterval, '--watch-interval');
  if (intervalMs < LEAST_WATCH_INTERVAL_MS) {
    throw new UsageError(
      `--watch-interval is at least ${LEAST_WATCH_INTERVAL_MS / 1000}s, not ${options.watchInterval}`,
    );
  }
  const graceMs = parseDuration(options.watchGrace, '--watch-grace');
  const signal = options.watchSignal?.toUpperCase();
  if (signal !== undefined && !(signal in osConstants.signals)) {
    throw new UsageError(`--watch-signal takes a signal's name such as SIGHUP, not "${options.watchSignal}"`);
  }
  return { intervalMs, graceMs, ...(signal !== undefined && { signal: signal as NodeJS.Signals }) };
};

/** Whether two exports hold the same names with the same values. */
const sameValues = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, value]) => b[name] === value);

/** Why a `--watch` check failed, in a few words that hold no value and no token. */
const watchProblem = (error: unknown): string => {
  const why =
    error instanceof SecretsApiError
      ? `the API answered ${error.status} ${error.error}`
      : error instanceof Error
        ? error.message
        : String(error);
  return redact(why).replace(/\s+/g, ' ');
};

/**
 * Reads the environment's secrets for `run`, from the API or, when it cannot be reached, the snapshot;
 * with the export's tag when the API answered, which `--watch` asks again with.
 */
const readForRun = async (
  { client, target, apiUrl }: Connection,
  fallback: { file: string; key: FallbackKey; maxAgeMs: number } | undefined,
): Promise<{ values: Record<string, string>; etag: string | undefined }> => {
  const api = new URL(apiUrl);
  api.username = '';
  api.password = '';
  const source: SnapshotSource = { api: api.href.replace(/\/+$/, ''), ...target };
  try {
    const exported = await withNearNames(client, target, undefined, () => readTaggedExport(client, target));
    const values = servedSecrets(exported?.values ?? {});
    if (fallback) {
      try {
        writeSnapshot(fallback.file, values, fallback.key, source);
      } catch (error) {
        note(`secrets: warning: the fallback snapshot could not be written: ${(error as Error).message}\n`);
      }
    }
    return { values, etag: exported?.etag };
  } catch (error) {
    const unreachable =
      error instanceof SecretsNetworkError || (error instanceof SecretsApiError && error.status >= 500);
    if (!fallback || !unreachable) throw error;
    const reason =
      error instanceof SecretsApiError ? `the API answered ${error.status} ${error.error}` : (error as Error).message;
    let snapshot: ReturnType<typeof readSnapshot>;
    try {
      snapshot = readSnapshot(fallback.file, fallback.key, fallback.maxAgeMs, source);
    } catch (problem) {
      // Both halves matter: the API could not be reached (where, and why), and the snapshot could not stand in.
      const failed =
        error instanceof SecretsApiError ? `The API at ${apiUrl} answered ${error.status} ${error.error}` : reason;
      throw new CommandError(`${failed}, and ${(problem as Error).message}`);
    }
    note(`secrets: ${reason}; running with the fallback snapshot of ${snapshot.createdAt}\n`);
    return { values: servedSecrets(snapshot.values), etag: undefined };
  }
};

/**
 * The `secrets` program; `setExitCode` receives what `run` and `diff` answer, and `setFailureCode` the
 * code a command's failure exits with when it is not 1 (`diff`'s 2, as diff(1)'s trouble).
 */
export const buildProgram = (setExitCode: (code: number) => void, setFailureCode: (code: number) => void): Command => {
  const program = new Command('secrets')
    .description('Secrets of a Secrets Service environment, for scripts and pipelines.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .enablePositionalOptions()
    .showSuggestionAfterError()
    .exitOverride()
    .addHelpText('after', ENVIRONMENT_HELP);

  withTarget(
    program
      .command('run')
      .description('run a command with the environment’s secrets added to its environment')
      .argument('<command...>', 'the command and its arguments, after --')
      .option('--preserve-env', 'keep a variable already set rather than the secret of the same name')
      .option(
        '--allow-name <name>',
        'inject a secret whose name changes how programs load (PATH, LD_PRELOAD, NODE_OPTIONS…); repeat for several',
        repeated,
      )
      .option('--fallback <file>', 'keep an encrypted snapshot here, and run from it when the API cannot be reached')
      .option('--fallback-max-age <duration>', 'the oldest snapshot to run from, e.g. 90s, 15m, 24h', '24h')
      .option('--watch', 'check for changes every --watch-interval; on one, restart the command with the new secrets')
      .option('--watch-interval <duration>', 'time between checks, at least 5s', '30s')
      .option('--watch-grace <duration>', 'time a restarted command has between SIGTERM and SIGKILL', '10s')
      .option('--watch-signal <signal>', 'on a change, send this signal (e.g. SIGHUP) instead of restarting')
      .option(
        '--mount <file>',
        'write the secrets to this new file (mode 0600), removed at the end, not in the environment',
      )
      .addOption(
        new Option(
          '--mount-format <format>',
          'the mount file’s format (default: from its extension, else dotenv)',
        ).choices(MOUNT_FORMATS),
      )
      .option('--inject', 'with --mount, inject the secrets into the environment as well')
      .passThroughOptions()
      .addHelpText('after', RUN_HELP),
  ).action(
    async (
      argv: string[],
      options: CommonOptions & {
        preserveEnv?: boolean;
        allowName?: string[];
        fallback?: string;
        fallbackMaxAge: string;
        watch?: boolean;
        watchInterval: string;
        watchGrace: string;
        watchSignal?: string;
        mount?: string;
        mountFormat?: MountFormat;
        inject?: boolean;
      },
    ) => {
      const allowed = new Set((options.allowName ?? []).map(secretName));
      const [command, ...args] = argv;
      if (command === undefined) throw new UsageError('give the command to run after --');
      const watch = options.watch ? watchOptions(options) : undefined;
      if (watch?.signal !== undefined && options.mount === undefined) {
        // A running command's environment cannot change: only a mount file can bring it the new values.
        throw new UsageError('--watch-signal needs --mount: a signal cannot change the command’s environment');
      }
      const mount =
        options.mount === undefined
          ? undefined
          : createMount(options.mount, options.mountFormat ?? mountFormatOf(options.mount));
      const connection = connect(options);
      let fallback: { file: string; key: FallbackKey; maxAgeMs: number } | undefined;
      if (options.fallback !== undefined) {
        fallback = {
          file: options.fallback,
          key: fallbackKey(process.env),
          maxAgeMs: parseDuration(options.fallbackMaxAge, '--fallback-max-age'),
        };
      }
      const inherited = { ...process.env };
      for (const name of OWN_VARIABLES) delete inherited[name];
      const inject = mount === undefined || options.inject === true;
      /** The command's environment with `values`, after the name filter; the mount file is written first. */
      const environmentWith = (read: Readonly<Record<string, string>>): NodeJS.ProcessEnv => {
        const { inject: values, skipped } = injectableSecrets(read, allowed);
        for (const name of skipped) {
          note(`secrets: ${name} not injected: it changes how programs load (--allow-name ${name} injects it)\n`);
        }
        mount?.write(values);
        const added = inject ? values : {};
        const env = options.preserveEnv ? { ...added, ...inherited } : { ...inherited, ...added };
        return mount === undefined ? env : { ...env, SECRETS_MOUNT_PATH: mount.path };
      };
      const first = await readForRun(connection, fallback);
      const env = environmentWith(first.values);
      // The mount file goes with the run: when the command ends, and when the wrapper is told to stop.
      const unmount = () => mount?.remove();
      const stops = ['SIGINT', 'SIGTERM'] as const;
      for (const signal of stops) process.on(signal, unmount);
      try {
        if (watch === undefined) {
          setExitCode(await runChild(command, args, env, note));
          return;
        }
        let { etag, values } = first;
        const check = async (): Promise<NodeJS.ProcessEnv | undefined> => {
          try {
            const read = await readTaggedExport(connection.client, connection.target, etag);
            if (read === undefined) return undefined;
            const served = servedSecrets(read.values);
            if (sameValues(served, values)) {
              etag = read.etag;
              return undefined;
            }
            // The mount file is written first: if that fails, the old tag is kept and the next check tries again.
            const next = environmentWith(served);
            etag = read.etag;
            values = served;
            return next;
          } catch (error) {
            note(`secrets: could not check for changes (${watchProblem(error)}); the command keeps running\n`);
            return undefined;
          }
        };
        setExitCode(await superviseChild(command, args, env, note, { ...watch, check }));
      } finally {
        for (const signal of stops) process.off(signal, unmount);
        unmount();
      }
    },
  );

  withTarget(
    program
      .command('export')
      .description('print the environment’s secrets')
      .addOption(new Option('--format <format>', 'output format').choices(EXPORT_FORMATS).default('dotenv'))
      .option('--raw', 'values as stored, their references to other secrets not resolved'),
  ).action(async (options: CommonOptions & { format: ExportFormat; raw?: boolean }) => {
    const { client, target } = connect(options);
    const values = servedSecrets(
      await withNearNames(client, target, undefined, () =>
        client.export(target.projectId, target.environment, { raw: options.raw === true }),
      ),
    );
    out(formatExport(values, options.format));
    if (options.format !== 'dotenv') return;
    const escaped = dollarEscapedNames(values);
    if (escaped.length > 0) {
      note(
        `secrets: ${escaped.join(', ')}: each $ written as \\$, so that dotenv-expand expands nothing and reads the value exactly; dotenv and a shell keep the backslashes: use --format json or shell for exact values\n`,
      );
    }
    const hidden = dotenvOnlyNames(values);
    if (hidden.length > 0) {
      note(
        `secrets: ${hidden.join(', ')}: for dotenv readers only; a shell sourcing this file leaves ${hidden.length === 1 ? 'it' : 'them'} unset (a value with ' and $, \`, \\ or " has no quoting both read exactly): use --format shell for a shell\n`,
      );
    }
  });

  withTarget(
    program
      .command('get')
      .description('print one secret’s value, alone')
      .argument('<name>')
      .option('--version <n>', 'an earlier version', wholeNumber(1))
      .option('--raw', 'the value as stored, its references to other secrets not resolved'),
  ).action(async (name: string, options: CommonOptions & { version?: number; raw?: boolean }) => {
    secretName(name);
    const { client, target } = connect(options);
    const secret = await withNearNames(client, target, name, () =>
      client.get(target.projectId, target.environment, name, options.version, { raw: options.raw === true }),
    );
    out(secret.value);
  });

  withTarget(program.command('list').description('list the secrets: names, versions, who and when; no values')).action(
    async (options: CommonOptions) => {
      const { client, target } = connect(options);
      const secrets = await withNearNames(client, target, undefined, () =>
        client.list(target.projectId, target.environment),
      );
      out(
        table([
          ['NAME', 'VERSION', 'UPDATED', 'BY'],
          ...secrets.map((secret) => [secret.name, String(secret.version), secret.updatedAt, who(secret.updatedBy)]),
        ]),
      );
    },
  );

  withTarget(
    program
      .command('set')
      .description('write a secret’s next version; without VALUE (or with -), read it from standard input')
      .argument('<name>')
      .argument('[value]', 'the value; prefer standard input, which stays out of shell history')
      .option('--expect-version <n>', 'write only if this is the current version (0: only if none)', wholeNumber(0)),
  ).action(async (name: string, value: string | undefined, options: CommonOptions & { expectVersion?: number }) => {
    secretName(name);
    const { client, target } = connect(options);
    announceWrite(await projectLabel(client, target.projectId), target);
    const text = value === undefined || value === '-' ? await readStandardInput() : value;
    const expected = options.expectVersion;
    const { secret, created } = await orPropose(
      target,
      { flags: `--set ${name}`, input: ', the value on standard input' },
      () =>
        withNearNames(client, target, undefined, () =>
          client.set(target.projectId, target.environment, name, text, { expectedVersion: expected }),
        ),
    ).catch(async (error: unknown) => {
      if (!(error instanceof SecretsApiError) || error.error !== ErrorText.secretConflict || expected === undefined) {
        throw error;
      }
      const current = await currentVersion(client, target, name, expected);
      throw current ? new ExplainedError(error.error, current) : error;
    });
    out(`${secret.name}: version ${secret.version}${created ? ' (created)' : ''}\n`);
  });

  withTarget(
    program.command('delete').description('delete a secret (restorable for 30 days)').argument('<name>'),
  ).action(async (name: string, options: CommonOptions) => {
    secretName(name);
    const { client, target } = connect(options);
    announceWrite(await projectLabel(client, target.projectId), target);
    await orPropose(target, { flags: `--delete ${name}` }, () =>
      withNearNames(client, target, name, () => client.delete(target.projectId, target.environment, name)),
    );
    out(`${name}: deleted\n`);
  });

  withTarget(
    program
      .command('import')
      .description(
        `write every secret of a .env file in one change: all of them or none (at most ${MAX_PATCH_CHANGES})`,
      )
      .argument('<file>'),
  ).action(async (file: string, options: CommonOptions) => {
    const { client, target } = connect(options);
    const entries = readEnvEntries(file);
    const count = Object.keys(entries).length;
    if (count > MAX_PATCH_CHANGES) {
      throw new CommandError(
        `${file} holds ${count} secrets; one change writes at most ${MAX_PATCH_CHANGES}: nothing was imported`,
      );
    }
    announceWrite(await projectLabel(client, target.projectId), target);
    const changed = await orPropose(target, { flags: `--from-env-file ${shellWord(file)}` }, () =>
      withNearNames(client, target, undefined, () =>
        client.change(target.projectId, target.environment, { set: entries }),
      ),
    );
    out(changed.map((change) => `${change.name}: version ${change.version}\n`).join(''));
  });

  withTarget(
    program.command('history').description('list a secret’s versions, newest first').argument('<name>'),
  ).action(async (name: string, options: CommonOptions) => {
    secretName(name);
    const { client, target } = connect(options);
    const versions = await withNearNames(client, target, name, () =>
      client.history(target.projectId, target.environment, name),
    );
    out(
      table([
        ['VERSION', 'UPDATED', 'BY', ''],
        ...versions.map((entry) => [
          String(entry.version),
          entry.updatedAt,
          who(entry.updatedBy),
          entry.deleted ? 'deleted' : '',
        ]),
      ]),
    );
  });

  withTarget(
    program
      .command('restore')
      .description('write an earlier version’s value as the next version')
      .argument('<name>')
      .requiredOption('--version <n>', 'the version to restore', wholeNumber(1)),
  ).action(async (name: string, options: CommonOptions & { version: number }) => {
    secretName(name);
    const { client, target } = connect(options);
    announceWrite(await projectLabel(client, target.projectId), target);
    const secret = await orPropose(target, { flags: `--restore ${name}:${options.version}` }, () =>
      withNearNames(client, target, name, () =>
        client.restore(target.projectId, target.environment, name, options.version),
      ),
    );
    out(`${secret.name}: version ${options.version} restored as version ${secret.version}\n`);
  });

  addChangesCommands(program);

  program
    .command('diff')
    .description('compare two environments’ secrets: same, different, only in one; no values')
    .argument('<from>', 'an environment, e.g. staging')
    .argument('<to>', 'another, e.g. production')
    .option('-p, --project <id>', 'project id (else SECRETS_PROJECT, else .secrets.json)')
    .option('--timeout <duration>', 'time to wait for each answer, e.g. 10s', '10s')
    .addHelpText('after', DIFF_HELP)
    .action(async (from: string, to: string, options: CommonOptions) => {
      setFailureCode(2);
      const pair = environmentPair(from, to);
      const client = connectAccount(options);
      const projectId = resolveProject(options, process.env, process.cwd());
      const compared = await withNearPair(client, projectId, pair, [], () =>
        client.compare(projectId, pair.from, pair.to),
      );
      if (compared.length > 0) {
        const version = (number: number | null) => (number === null ? '-' : String(number));
        out(
          table([
            ['NAME', 'STATUS', pair.from.toUpperCase(), pair.to.toUpperCase()],
            ...compared.map((entry) => [
              printable(entry.name),
              statusWords(entry.status, pair),
              version(entry.fromVersion),
              version(entry.toVersion),
            ]),
          ]),
        );
      }
      const counts = (['same', 'different', 'only-from', 'only-to'] as const)
        .map((status) => [status, compared.filter((entry) => entry.status === status).length] as const)
        .filter(([, count]) => count > 0)
        .map(([status, count]) => `${count} ${statusWords(status, pair)}`);
      note(
        counts.length === 0
          ? `neither ${pair.from} nor ${pair.to} holds a secret\n`
          : `${pair.from} → ${pair.to}: ${counts.join(', ')}\n`,
      );
      setExitCode(compared.every((entry) => entry.status === 'same') ? 0 : 1);
    });

  program
    .command('promote')
    .description(
      `copy secrets’ current values from one environment to another, as one change (at most ${MAX_PATCH_CHANGES})`,
    )
    .argument('<from>', 'the environment to copy from, e.g. staging')
    .argument('<to>', 'the environment to write, e.g. production')
    .argument('<names...>', 'the secrets to promote')
    .option('-p, --project <id>', 'project id (else SECRETS_PROJECT, else .secrets.json)')
    .option('--note <text>', 'where TO is protected: the change request’s note, for whoever approves it')
    .option('--timeout <duration>', 'time to wait for each answer, e.g. 10s', '10s')
    .addHelpText('after', PROMOTE_HELP)
    .action(async (from: string, to: string, names: string[], options: CommonOptions & { note?: string }) => {
      const pair = environmentPair(from, to);
      for (const name of names) secretName(name);
      const twice = names.find((name, index) => names.indexOf(name) !== index);
      if (twice !== undefined) throw new UsageError(`${twice} is named twice`);
      if (names.length > MAX_PATCH_CHANGES) {
        throw new UsageError(`one promote writes at most ${MAX_PATCH_CHANGES} secrets; ${names.length} were given`);
      }
      const client = connectAccount(options);
      const projectId = resolveProject(options, process.env, process.cwd());
      announceWrite(await projectLabel(client, projectId), { projectId, environment: pair.to });
      const promoted = await withNearPair(client, projectId, pair, names, () =>
        client.promote(projectId, pair.from, pair.to, names, {
          ...(options.note !== undefined && { note: options.note }),
        }),
      );
      if (!Array.isArray(promoted)) {
        out(`${promoted.id}\n`);
        note(
          `${pair.to} is protected: proposed as ${promoted.id}, waiting for ${plural(approvalsLeft(promoted), 'approval')} (secrets changes show ${promoted.id} -e ${pair.to})\n`,
        );
        return;
      }
      out(promoted.map((entry) => `${printable(entry.name)}: version ${entry.version}\n`).join(''));
      note(`promoted ${plural(promoted.length, 'secret')} from ${pair.from} to ${pair.to}\n`);
    });

  program
    .command('environments')
    .description('list the project’s environments')
    .option('-p, --project <id>', 'project id (else SECRETS_PROJECT, else .secrets.json)')
    .option('--timeout <duration>', 'time to wait for each answer, e.g. 10s', '10s')
    .action(async (options: CommonOptions) => {
      const client = connectAccount(options);
      const projectId = resolveProject(options, process.env, process.cwd());
      const environments = await client.environments(projectId);
      out(
        table([
          ['NAME', 'SECRETS', 'CREATED'],
          ...environments.map((entry) => [entry.name, String(entry.secretCount), entry.createdAt]),
        ]),
      );
    });

  program
    .command('share')
    .description('share a value from standard input, end to end encrypted, for a few views; print its link')
    .option(
      '--views <n>',
      `times it may be revealed, 1 to ${MAX_SHARE_VIEWS} (default ${DEFAULT_SHARE_VIEWS})`,
      wholeNumber(1, MAX_SHARE_VIEWS),
    )
    .option(
      '--expires-in-hours <hours>',
      `hours until it expires, ${MIN_SHARE_HOURS} to ${MAX_SHARE_HOURS} (default ${DEFAULT_SHARE_HOURS})`,
      wholeNumber(MIN_SHARE_HOURS, MAX_SHARE_HOURS),
    )
    .option(
      '--recipient <email>',
      `only this person may reveal it; repeat for several (at most ${MAX_SHARE_RECIPIENTS})`,
      repeated,
    )
    .option('--timeout <duration>', 'time to wait for each answer, e.g. 10s', '10s')
    .addHelpText('after', SHARE_HELP)
    .action(async (options: { views?: number; expiresInHours?: number; recipient?: string[]; timeout: string }) => {
      const client = connectAccount(options);
      const named = resolveDashboardUrl(process.env);
      const recipients = shareRecipients(options.recipient ?? []);
      const value = shareValue(await readStandardInputBytes());
      // Asked once the value is known to be one, before the share exists: a link is printed for every share made.
      const dashboardUrl = await dashboardFor(client, named);
      const { share, key } = await client.share(value, {
        ...(options.views !== undefined && { maxViews: options.views }),
        ...(options.expiresInHours !== undefined && { expiresInHours: options.expiresInHours }),
        ...(recipients && { recipients }),
      });
      out(`${shareLink(dashboardUrl, share.id, key)}\n`);
      const whom = share.recipients ? share.recipients.join(', ') : 'anyone signed in who has the link';
      note(`${share.id}: ${plural(share.maxViews, 'view')} until ${share.expiresAt}, for ${whom}\n`);
    });

  program
    .command('reveal')
    .description('reveal a share: print its value (spends one of its views)')
    .argument('<link>', 'the whole link, key included: <dashboard>/s/shr_…#key; - reads it from standard input')
    .option('--timeout <duration>', 'time to wait for each answer, e.g. 10s', '10s')
    .addHelpText('after', REVEAL_HELP)
    .action(async (argument: string, options: { timeout: string }) => {
      const link = argument === '-' ? (await readStandardInput()).trim() : argument;
      const parsed = parseShareLink(link);
      if (!parsed) throw new UsageError('that is not a share link (<dashboard>/s/shr_…#key)');
      if (!parsed.key) {
        throw new UsageError('the link has no key (the part after #): copy the whole link; no view was spent');
      }
      const client = connectAccount(options);
      const revealed = await client.reveal(parsed.id, parsed.key);
      out(revealed.value);
      const left =
        revealed.viewsLeft === 0
          ? 'that was the last view'
          : `${plural(revealed.viewsLeft, 'view')} left until ${revealed.expiresAt}`;
      note(`shared by ${revealed.createdBy.email ?? 'a person without an e-mail address'}; ${left}\n`);
    });

  program
    .command('setup')
    .description('write .secrets.json here and trust it: the project and environment of this folder (never a token)')
    .requiredOption('-p, --project <id>', 'project id')
    .requiredOption('-e, --env <name>', 'environment')
    .option('--timeout <duration>', 'time to wait for each answer, e.g. 10s', '10s')
    .addHelpText('after', SETUP_HELP)
    .action(async (options: { project: string; env: string; timeout: string }) => {
      const target = checkTarget({ projectId: options.project, environment: options.env });
      const client = connectAccount(options);
      const label = await projectLabel(client, target.projectId);
      const names = await client.environments(target.projectId).then(
        (environments) => environments.map((entry) => entry.name),
        (error: unknown) => {
          // A token limited to environments may not list the project's, but may reach its own.
          if (error instanceof SecretsApiError && error.error === ErrorText.tokenResource) return undefined;
          throw error;
        },
      );
      if (names === undefined) {
        await withNearNames(client, target, undefined, () => client.list(target.projectId, target.environment));
      } else if (!names.includes(target.environment)) {
        const near = nearestName(target.environment, names);
        const refusal = `Environment ${JSON.stringify(target.environment)} does not exist in project ${label}; its environments: ${names.join(', ')}.`;
        throw near ? new ExplainedError(refusal, `Did you mean ${near}?`) : new CommandError(refusal);
      }
      announceWrite(label, target);
      out(`wrote ${writeSetup(process.cwd(), target, process.env)} and trusted it\n`);
    });

  program
    .command('trust')
    .description('trust the .secrets.json this folder (or FOLDER) uses, after showing where it is and what it names')
    .argument('[folder]', 'the folder whose .secrets.json to trust (default: this one)')
    .option('--revoke', 'stop trusting it')
    .addHelpText('after', TRUST_HELP)
    .action((folder: string | undefined, options: { revoke?: boolean }) => {
      const start = folder ?? process.cwd();
      if (options.revoke) {
        const { file, revoked } = revokeSetup(start, process.env);
        out(revoked ? `No longer trusted: ${file}\n` : `${file} was not trusted\n`);
        return;
      }
      const setup = findSetup(start, homeFolder(process.env));
      if (setup === undefined) {
        throw new UsageError(
          `no ${SETUP_FILE} in ${start} or above it, up to the repository's root or the home folder`,
        );
      }
      const target = trustSetup(setup, process.env);
      out(
        `${setup.file} names project ${target.projectId}, environment ${target.environment}.\n` +
          `Trusted: commands in ${setup.folder} and below use it until it changes.\n`,
      );
    });

  return program;
};

/** What an API refusal means for this caller, beyond the API's own words. */
const hintFor = (error: SecretsApiError): string | undefined =>
  error.status === 403 && error.error === ErrorText.wrongIp
    ? 'This token works only from the addresses its entry in the token list shows (Allowed IPs); create one for this machine’s address.'
    : undefined;

/** Runs the command line; answers its exit code. No token is ever printed: any message holding it is redacted. */
export const main = async (argv: readonly string[]): Promise<number> => {
  let exitCode = 0;
  let failureCode = 1;
  const program = buildProgram(
    (code) => {
      exitCode = code;
    },
    (code) => {
      failureCode = code;
    },
  );
  hold(process.env.SECRETS_TOKEN);
  const say = (text: string) => note(redact(text));
  try {
    await program.parseAsync([...argv], { from: 'node' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError) {
      say(`error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof SignInRefusedError) {
      say(`error: ${refusalLine(error)}\n`);
      return failureCode;
    }
    if (error instanceof SecretsApiError) {
      say(`error: ${error.error}\n`);
      for (const detail of error.details ?? []) say(`  ${detail.path}: ${detail.message}\n`);
      const hint = hintFor(error);
      if (hint) say(`${hint}\n`);
      return failureCode;
    }
    if (error instanceof SecretsNetworkError) {
      say(`error: ${error.message}\n`);
      return failureCode;
    }
    if (error instanceof ExplainedError) {
      say(`error: ${error.message}\n${error.explanation}\n`);
      return failureCode;
    }
    say(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return failureCode;
  }
};

// A reader that stops early (`secrets export | head -1`) closes the pipe: that ends the output, not in a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

void main(process.argv).then((code) => {
  process.exitCode = code;
});
