import { randomUUID } from 'node:crypto';
import { DISPLAY_PREFIX_LENGTH } from '@contract/identifiers';
import type { Page } from 'playwright-core';
import { type NpmService, startNpmService } from '../integration/npm-start';
import { accessibilityViolations, type BrowserSession, openBrowser, screenshotEachWidth } from './browser';

/**
 * The dashboard as a person uses it: `npm start`, Debian's Chromium, the development identity
 * provider's sign-in page, and the real API behind every click. The steps run in order, each on the
 * state the one before left.
 */

let service: NpmService;
let browser: BrowserSession;
let page: Page;
const ada = `ada-${randomUUID().slice(0, 8)}@example.com`;
const bob = `bob-${randomUUID().slice(0, 8)}@example.com`;
let rawToken = '';
/** The raw tokens of `ci-runners` and `office` as created, to try them once they are rotated. */
let runnersToken = '';
let officeToken = '';

const HOUR_MS = 60 * 60 * 1000;

const api = (path: string, init: RequestInit & { bearer?: string } = {}) =>
  fetch(`${service.baseUrl}${path}`, {
    ...init,
    headers: { ...(init.bearer && { Authorization: `Bearer ${init.bearer}` }), 'Content-Type': 'application/json' },
  });

/** The screen passes axe-core, and looks right at both widths (saved for people to look at). */
const checkScreen = async (name: string) => {
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await screenshotEachWidth(page, name)).toEqual([]);
};

/** Waits until `read` answers something other than `unwanted`; the test's own time limit bounds the wait. */
const waitUntilNot = async (unwanted: string | null, read: () => Promise<string | null>): Promise<void> => {
  while ((await read()) === unwanted) await new Promise((resolve) => setTimeout(resolve, 250));
};

const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name });

const tokenRow = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });

beforeAll(async () => {
  service = await startNpmService();
  browser = await openBrowser();
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

test('npm start prints the dashboard URL first', () => {
  const firstUrl = /https?:\/\/\S+/.exec(service.output().stdout)?.[0];
  expect(firstUrl).toBe(`${service.baseUrl}/`);
});

test('a person signs in through the development provider with an e-mail only', async () => {
  await page.goto(`${service.baseUrl}/`);
  await checkScreen('sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').waitFor();
  expect(new URL(page.url()).pathname).toMatch(/^\/_dev\/idp\/interaction\//);
  await checkScreen('dev-idp-sign-in');
  await page.getByLabel('E-mail').fill(ada);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.getByText(ada).waitFor();
  expect(new URL(page.url()).search).toBe('');
});

test('offers this machine’s loopback as where a new token works from, by default, as the API sees a loopback address', async () => {
  const thisAddress = page.getByLabel('This machine (127.0.0.1 and ::1)');
  await thisAddress.waitFor();
  await expect(thisAddress.isChecked()).resolves.toBe(true);
  await expect(page.getByLabel('These addresses').isChecked()).resolves.toBe(false);
  await expect(page.getByLabel('Addresses', { exact: true }).count()).resolves.toBe(0);
});

test('creates a token and shows the raw token once, with a copy button and a warning', async () => {
  await page.getByLabel('Name').fill('deploy-bot');
  await page.getByLabel('read:secrets').check();
  await page.getByLabel('admin').check();
  await page.getByLabel('Expires in days').fill('7');
  await page.getByRole('button', { name: 'Create token' }).click();
  const field = page.getByLabel('New token');
  await field.waitFor();
  rawToken = await field.inputValue();
  expect(rawToken).toMatch(/^svc_live_/);
  expect(await field.getAttribute('readonly')).not.toBeNull();
  await page.getByText('It will not be shown again.').waitFor();
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(rawToken);
  await tokenRow('deploy-bot').waitFor();
  await checkScreen('token-created');

  await page.reload();
  await tokenRow('deploy-bot').waitFor();
  expect(await page.content()).not.toContain(rawToken);
  await expect(page.getByLabel('New token').count()).resolves.toBe(0);
  await checkScreen('tokens');
});

test('the new token works from a script, and its last use shows after a reload', async () => {
  await expect(tokenRow('deploy-bot').getByRole('cell').nth(4).textContent()).resolves.toBe('never');
  await expect(tokenRow('deploy-bot').getByRole('cell').nth(5).textContent()).resolves.toBe('127.0.0.1, ::1');
  const response = await api('/api/v1/projects', { bearer: rawToken });
  expect(response.status).toBe(200);
  // The last use is recorded off the request's path: reload until it shows.
  await waitUntilNot('never', async () => {
    await page.reload();
    return tokenRow('deploy-bot').getByRole('cell').nth(4).textContent();
  });
  await expect(tokenRow('deploy-bot').getByRole('cell').nth(4).locator('time').count()).resolves.toBe(1);
  await expect(tokenRow('deploy-bot').getByRole('cell').nth(4).textContent()).resolves.toMatch(/ from 127\.0\.0\.1$/);
  // Seven days left: the list says it will stop soon.
  await expect(tokenRow('deploy-bot').getByRole('rowheader').textContent()).resolves.toContain('Expires soon');
});

test('revokes a token after a confirmation, and the token stops working', async () => {
  await tokenRow('deploy-bot').getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await checkScreen('revoke-confirmation');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await tokenRow('deploy-bot').waitFor({ state: 'detached' });
  expect((await api('/api/v1/projects', { bearer: rawToken })).status).toBe(401);
});

test('an error is shown in words next to the form that caused it', async () => {
  await page.getByLabel('Name').fill('no-scopes');
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('alert').filter({ hasText: 'Validation failed' }).waitFor();
});

test('creates a token that works from the addresses listed, and the list shows them', async () => {
  await page.getByLabel('Name').fill('ci-runners');
  await page.getByLabel('read:secrets').check();
  await page.getByLabel('These addresses').check();
  await page.getByLabel('Addresses', { exact: true }).fill('127.0.0.0/8\n\n  ::1  \n');
  await checkScreen('token-addresses');
  await page.getByRole('button', { name: 'Create token' }).click();
  const field = page.getByLabel('New token');
  await field.waitFor();
  const listed = await field.inputValue();
  runnersToken = listed;
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(tokenRow('ci-runners').getByRole('cell').nth(5).textContent()).resolves.toBe('127.0.0.0/8, ::1');
  const fromIpv6 = await fetch(`http://[::1]:${service.port}/api/v1/projects`, {
    headers: { Authorization: `Bearer ${listed}` },
  });
  expect(fromIpv6.status).toBe(200);
  // The form is back to its default for the next token.
  await expect(page.getByLabel('This machine (127.0.0.1 and ::1)').isChecked()).resolves.toBe(true);
});

test('each address the API refuses is named by its line next to the field in the API’s words, and the draft keeps the list', async () => {
  await page.getByLabel('Name').fill('office');
  await page.getByLabel('admin').check();
  await page.getByLabel('These addresses').check();
  const addresses = page.getByLabel('Addresses', { exact: true });
  await addresses.fill('10.0.0.1\nlocalhost\n\n0.0.0.0/0');
  await page.reload();
  await expect(addresses.inputValue()).resolves.toBe('10.0.0.1\nlocalhost\n\n0.0.0.0/0');
  await expect(page.getByLabel('These addresses').isChecked()).resolves.toBe(true);

  await page.getByRole('button', { name: 'Create token' }).click();
  const fieldError = page.locator('#token-addresses-error');
  await fieldError.waitFor();
  await expect(fieldError.getByRole('listitem').allTextContents()).resolves.toEqual([
    'Line 2, localhost: Not an IP address or CIDR',
    'Line 4, 0.0.0.0/0: Broader than a /8: an allow-list names the few networks a token is used from, not a share of the Internet',
  ]);
  await expect(addresses.getAttribute('aria-describedby')).resolves.toContain('token-addresses-error');
  await expect(addresses.getAttribute('aria-invalid')).resolves.toBe('true');
  // The form's own line carries the API's error, the field the detail.
  await expect(page.locator('#create-token-error').textContent()).resolves.toBe('Validation failed');
  await checkScreen('token-address-error');

  await addresses.fill('10.0.0.1\n127.0.0.1');
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByLabel('New token').waitFor();
  officeToken = await page.getByLabel('New token').inputValue();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(tokenRow('office').getByRole('cell').nth(5).textContent()).resolves.toBe('10.0.0.1, 127.0.0.1');
});

/** A row of a rotated token: it shares its name with its replacement, so the badge tells them apart. */
const replacedRow = (name: string) =>
  tokenRow(name).filter({ has: page.getByRole('rowheader').getByText('Replaced', { exact: true }) });
const currentRow = (name: string) =>
  tokenRow(name).filter({ hasNot: page.getByRole('rowheader').getByText('Replaced', { exact: true }) });

test('rotates a token after a confirmation: the new one shows once, the old one works until its stop time', async () => {
  await currentRow('office').getByRole('button', { name: 'Rotate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate “office”?' });
  await dialog.waitFor();
  await expect(dialog.textContent()).resolves.toContain(
    'A new token with the same name, scopes and addresses replaces “office”.',
  );
  await expect(dialog.getByLabel('Grace period').inputValue()).resolves.toBe('24');
  await checkScreen('rotate-confirmation');
  await dialog.getByRole('button', { name: 'Rotate' }).click();

  const field = page.getByLabel('New token');
  await field.waitFor();
  const replacement = await field.inputValue();
  expect(replacement).toMatch(/^svc_live_/);
  expect(replacement).not.toBe(officeToken);
  const created = page.getByRole('region', { name: 'Token “office” rotated' });
  // The Rotate button that had the focus is gone with the dialog: the panel takes it.
  await expect(page.evaluate('document.activeElement.id')).resolves.toBe('created-title');
  await created.getByText('It will not be shown again.').waitFor();
  await expect(created.textContent()).resolves.toContain(`replaces ${officeToken.slice(0, DISPLAY_PREFIX_LENGTH)}…`);
  const panelStop = await created.locator('time').getAttribute('datetime');
  expect(Math.abs(Date.parse(panelStop ?? '') - (Date.now() + 24 * HOUR_MS))).toBeLessThan(5 * 60 * 1000);

  // The list: the old token marked replaced, with when it stops and what replaces it; the new one beside it.
  const old = replacedRow('office');
  await old.waitFor();
  const stops = old.getByRole('cell').nth(3);
  await expect(stops.textContent()).resolves.toMatch(/^Stops working /);
  await expect(stops.locator('time').getAttribute('datetime')).resolves.toBe(panelStop);
  const newPrefix = await currentRow('office').getByRole('cell').first().textContent();
  expect(replacement.startsWith((newPrefix ?? '').replace('…', ''))).toBe(true);
  await expect(old.getByRole('rowheader').textContent()).resolves.toContain(`Replaced by ${newPrefix}`);
  await expect(old.getByRole('button', { name: 'Rotate' }).count()).resolves.toBe(0);
  await expect(old.getByRole('button', { name: 'Revoke' }).count()).resolves.toBe(1);
  await expect(currentRow('office').getByRole('cell').nth(5).textContent()).resolves.toBe('10.0.0.1, 127.0.0.1');
  await checkScreen('token-rotated');

  // Both work during the grace period.
  expect((await api('/api/v1/projects', { bearer: replacement })).status).toBe(200);
  expect((await api('/api/v1/projects', { bearer: officeToken })).status).toBe(200);
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await replacedRow('office').waitFor();
  expect(await page.content()).not.toContain(replacement);
});

test('rotating with no grace stops the old token at once, and the list says it stopped', async () => {
  await currentRow('ci-runners').getByRole('button', { name: 'Rotate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate “ci-runners”?' });
  await dialog.getByLabel('Grace period').selectOption({ label: 'No grace (stops now)' });
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await page.getByLabel('New token').waitFor();
  const created = page.getByRole('region', { name: 'Token “ci-runners” rotated' });
  await expect(created.textContent()).resolves.toContain(
    `It replaces ${runnersToken.slice(0, DISPLAY_PREFIX_LENGTH)}…, which has stopped working.`,
  );
  await page.getByRole('button', { name: 'Done' }).click();

  const old = replacedRow('ci-runners');
  await old.waitFor();
  await expect(old.getByRole('cell').nth(3).textContent()).resolves.toMatch(/^Stopped /);
  await expect(old.getAttribute('class')).resolves.toBe('expired');
  expect((await api('/api/v1/projects', { bearer: runnersToken })).status).toBe(401);
  await expect(currentRow('ci-runners').getByRole('cell').nth(5).textContent()).resolves.toBe('127.0.0.0/8, ::1');
});

test('a rotation the API refuses is explained in the dialog in the API’s words', async () => {
  // Another tab rotates the new `office` token behind this page's back.
  const session = await api('/_dev/idp/token', { method: 'POST', body: JSON.stringify({ email: ada }) });
  const { token } = (await session.json()) as { token: string };
  const listing = (await (await api('/api/v1/tokens', { bearer: token })).json()) as {
    data: { id: string; name: string; replacedBy: string | null }[];
  };
  const current = listing.data.find((entry) => entry.name === 'office' && entry.replacedBy === null);
  const rotated = await api(`/api/v1/tokens/${current?.id}/rotate`, { method: 'POST', body: '{}', bearer: token });
  expect(rotated.status).toBe(201);

  await currentRow('office').getByRole('button', { name: 'Rotate' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await dialog
    .getByRole('alert')
    .filter({ hasText: 'Token already rotated: rotate its replacement instead' })
    .waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
});

test('creates a project and lists it with the role owner', async () => {
  await nav('Projects').click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  await page.getByLabel('Name').fill('payments');
  await page.getByRole('button', { name: 'Create project' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'payments' }) });
  await row.waitFor();
  await expect(row.getByRole('cell').first().textContent()).resolves.toBe('owner');
  await checkScreen('projects');
});

test('adding an unknown e-mail shows the API error in words', async () => {
  await page.getByRole('link', { name: 'payments' }).click();
  await page.getByRole('heading', { name: 'Members of payments' }).waitFor();
  await page.getByLabel('E-mail').fill(`nobody-${randomUUID().slice(0, 8)}@example.com`);
  await page.getByRole('button', { name: 'Add member' }).click();
  await page.getByRole('alert').filter({ hasText: 'User not found' }).waitFor();
});

test('adds a member who has signed in once, then removes them after a confirmation', async () => {
  const session = await api('/_dev/idp/token', { method: 'POST', body: JSON.stringify({ email: bob }) });
  const { token } = (await session.json()) as { token: string };
  expect((await api('/api/v1/tokens', { bearer: token })).status).toBe(200);

  await page.getByLabel('E-mail').fill(bob);
  await page.getByLabel('Role').selectOption('admin');
  await page.getByRole('button', { name: 'Add member' }).click();
  const bobRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: bob }) });
  await bobRow.waitFor();
  const rows = page.getByRole('row').filter({ has: page.getByRole('rowheader') });
  await expect(rows.allTextContents()).resolves.toEqual([expect.stringContaining(ada), expect.stringContaining(bob)]);
  const adaRow = rows.filter({ hasText: ada });
  await expect(adaRow.getByRole('button', { name: 'Remove' }).count()).resolves.toBe(0);
  await checkScreen('members');

  await bobRow.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await bobRow.waitFor({ state: 'detached' });
});

test('shows what happened, for the person and for a project, with filters', async () => {
  const eventTypes = () => page.getByRole('rowheader').allTextContents();
  await page.getByRole('link', { name: 'Project activity' }).click();
  await page.getByRole('heading', { name: 'Activity of payments' }).waitFor();
  await page.getByRole('rowheader', { name: 'project.created' }).waitFor();
  await expect(eventTypes()).resolves.toEqual(['member.removed', 'member.added', 'project.created']);
  await checkScreen('project-activity');

  await nav('Activity').click();
  await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
  await page.getByRole('rowheader', { name: 'token.created' }).first().waitFor();
  await expect(eventTypes()).resolves.toEqual([
    'member.removed',
    'member.added',
    'project.created',
    'token.rotated',
    'token.rotated',
    'token.rotated',
    'token.created',
    'token.created',
    'token.revoked',
    'token.created',
  ]);
  await page.getByLabel('Type').selectOption('token.revoked');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('rowheader', { name: 'token.created' }).first().waitFor({ state: 'detached' });
  await expect(eventTypes()).resolves.toEqual(['token.revoked']);
  await checkScreen('activity');

  await nav('Projects').click();
  await page.getByRole('link', { name: 'payments' }).click();
  await page.getByRole('heading', { name: 'Members of payments' }).waitFor();
});

test('a plain member sees the members but is offered no control to change them', async () => {
  await page.getByLabel('E-mail').fill(bob);
  await page.getByRole('button', { name: 'Add member' }).click();
  const bobRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: bob }) });
  await expect(bobRow.getByRole('cell').first().textContent()).resolves.toBe('member');
  const projectUrl = page.url();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(bob);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.goto(projectUrl);
  await page.getByRole('heading', { name: 'Members of payments' }).waitFor();
  await bobRow.waitFor();
  await expect(page.getByRole('button', { name: 'Add member' }).count()).resolves.toBe(0);
  await expect(page.getByRole('button', { name: 'Remove' }).count()).resolves.toBe(0);
  await expect(page.getByLabel('E-mail').count()).resolves.toBe(0);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(ada);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
});

test('limits a new token to chosen projects and environments, and the list shows them by name', async () => {
  await expect(page.getByLabel('All my projects').isChecked()).resolves.toBe(true);
  await expect(page.getByLabel('payments', { exact: true }).count()).resolves.toBe(0);
  await page.getByLabel('Name').fill('payments-deploy');
  await page.getByLabel('admin').check();
  await page.getByLabel('Only these projects').check();
  await page.getByLabel('payments', { exact: true }).check();
  await page.getByLabel('Environments of payments').fill(' staging, production ,');
  await checkScreen('token-projects');
  await page.getByRole('button', { name: 'Create token' }).click();
  const field = page.getByLabel('New token');
  await field.waitFor();
  const limited = await field.inputValue();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(tokenRow('payments-deploy').getByRole('cell').nth(6).textContent()).resolves.toBe(
    'payments (staging, production)',
  );
  const outside = await api('/api/v1/projects', { bearer: limited });
  expect(outside.status).toBe(403);
  expect(((await outside.json()) as { error: string }).error).toBe('Forbidden: Token is not allowed for this resource');
  // The form is back to its default for the next token.
  await expect(page.getByLabel('All my projects').isChecked()).resolves.toBe(true);
});

test('a project entry the API refuses is named by its project next to the choice, in the API’s words', async () => {
  await page.getByLabel('Name').fill('bad-environments');
  await page.getByLabel('admin').check();
  await page.getByLabel('Only these projects').check();
  await page.getByLabel('payments', { exact: true }).check();
  await page.getByLabel('Environments of payments').fill('Prod!');
  await page.getByRole('button', { name: 'Create token' }).click();
  const fieldError = page.locator('#token-projects-error');
  await fieldError.waitFor();
  await expect(fieldError.getByRole('listitem').allTextContents()).resolves.toEqual([
    'payments: Use 1 to 32 characters of a-z, 0-9 and -, starting and ending with a letter or a digit',
  ]);
  await expect(page.locator('#create-token-error').textContent()).resolves.toBe('Validation failed');
  await page.getByLabel('All my projects').check();
  await page.getByLabel('Name').fill('');
  await page.getByLabel('admin').uncheck();
});

test("a project's Secrets screen offers its environments, and its owner adds one", async () => {
  await nav('Projects').click();
  await page.getByRole('link', { name: 'payments' }).click();
  await page.getByRole('heading', { name: 'Members of payments' }).waitFor();
  await page.getByRole('link', { name: 'Secrets' }).click();
  await page.getByRole('heading', { name: 'Secrets of payments' }).waitFor();
  // The first environment is chosen once the list has loaded.
  await page.getByText('No secrets in development yet.').waitFor();
  const environment = page.getByLabel('Environment', { exact: true });
  await expect(environment.count()).resolves.toBe(1);
  await expect(environment.locator('option').allTextContents()).resolves.toEqual([
    'development',
    'production',
    'staging',
  ]);
  await environment.selectOption('staging');
  await page.getByText('No secrets in staging yet.').waitFor();

  await page.getByLabel('Environment name').fill('Preview');
  await page.getByRole('button', { name: 'Add environment' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: 'Use 1 to 32 characters of a-z, 0-9 and -, starting and ending with a letter or a digit' })
    .waitFor();
  await page.getByLabel('Environment name').fill('staging');
  await page.getByRole('button', { name: 'Add environment' }).click();
  await page.getByRole('alert').filter({ hasText: 'Environment already exists' }).waitFor();
  await page.getByLabel('Environment name').fill('preview');
  await page.getByRole('button', { name: 'Add environment' }).click();
  await page.getByText('No secrets in preview yet.').waitFor();
  await expect(environment.inputValue()).resolves.toBe('preview');
  await expect(page.getByLabel('Environment name').inputValue()).resolves.toBe('');
  await checkScreen('secrets');
});

test('a session the API rejects sends the person to sign in again, keeping what they typed', async () => {
  await nav('Projects').click();
  // The token screen has a Name field too: type only once the projects' form is there.
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  await page.getByLabel('Name').fill('half-typed');
  // The stored session's ID token no longer verifies, as after it expired (browser code as text: the
  // tests are compiled without the DOM's types).
  await page.evaluate(`
    for (const key of Object.keys(sessionStorage).filter((name) => name.startsWith('oidc.user:'))) {
      const user = JSON.parse(sessionStorage.getItem(key));
      sessionStorage.setItem(key, JSON.stringify({ ...user, id_token: user.id_token + 'x' }));
    }
  `);
  await page.reload();
  await page.getByRole('alert').filter({ hasText: 'Your session expired. Sign in again.' }).waitFor();
  // The provider's own session is still alive, so it signs the person in without asking again.
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  await expect(page.getByLabel('Name').inputValue()).resolves.toBe('half-typed');
});

test('signs out, and signing in again asks for the e-mail', async () => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.reload();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').waitFor();
});

test('the page logged no error and asked no host but the service', () => {
  expect(browser.errors).toEqual([]);
  const hosts = new Set(browser.requests.filter((url) => !url.startsWith('data:')).map((url) => new URL(url).host));
  expect([...hosts]).toEqual([new URL(service.baseUrl).host]);
});
