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
  // What the service is, before anything else: secrets, shares and tokens.
  await page
    .getByText(
      'Keep secrets per project and environment, share one through a link that expires, and give scripts API tokens to read them.',
    )
    .waitFor();
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

test('a token without a scope is refused beside Scopes, in the API’s words', async () => {
  await page.getByLabel('Name').fill('no-scopes');
  await page.getByRole('button', { name: 'Create token' }).click();
  const scopesError = page.locator('#token-scopes-error');
  await scopesError.waitFor();
  await expect(scopesError.textContent()).resolves.toBe('Choose at least one scope');
  await expect(page.getByRole('group', { name: 'Scopes' }).getAttribute('aria-describedby')).resolves.toBe(
    'token-scopes-error',
  );
  for (const scope of ['read:secrets', 'write:secrets', 'admin']) {
    await expect(page.getByLabel(scope).getAttribute('aria-invalid')).resolves.toBe('true');
  }
  await expect(page.locator('#create-token-error').textContent()).resolves.toBe('Validation failed');
  await checkScreen('token-scopes-error');
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
  await expectFocusOn('id', 'created-title');
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

/** A tab of the project's home, by its name. */
const tab = (name: string) => page.getByRole('tablist', { name: 'Project' }).getByRole('tab', { name });

/** Opens a tab of the shown project's home, and waits until its panel is there. */
const openTab = async (name: string) => {
  await tab(name).click();
  await page.getByRole('tabpanel', { name }).waitFor();
};

test('a project opens at its home, on its Secrets tab, with its name as the heading', async () => {
  await page.getByRole('link', { name: 'payments' }).click();
  await page.getByRole('heading', { name: 'payments', level: 1 }).waitFor();
  await page.getByRole('tabpanel', { name: 'Secrets' }).waitFor();
  await expect(page.getByRole('tablist', { name: 'Project' }).getByRole('tab').allTextContents()).resolves.toEqual([
    'Secrets',
    'Members',
    'Compare',
    'Changes',
    'Service accounts',
    'Activity',
    'Settings',
  ]);
  await expect(tab('Secrets').getAttribute('aria-selected')).resolves.toBe('true');
  expect(new URL(page.url()).hash).toMatch(/^#\/projects\/prj_[^/]+$/);
});

test('the project’s tabs answer the arrow keys, and each has its own address', async () => {
  await tab('Secrets').focus();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('tabpanel', { name: 'Members' }).waitFor();
  await expectFocusOn('textContent', 'Members');
  expect(new URL(page.url()).hash).toMatch(/^#\/projects\/prj_[^/]+\/members$/);
  await page.keyboard.press('End');
  await page.getByRole('tabpanel', { name: 'Settings' }).waitFor();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('tabpanel', { name: 'Secrets' }).waitFor();
  await page.keyboard.press('ArrowLeft');
  await page.getByRole('tabpanel', { name: 'Settings' }).waitFor();
  // The address alone opens the tab, as a bookmark or a reload would.
  await page.reload();
  await page.getByRole('tabpanel', { name: 'Settings' }).waitFor();
  await expect(tab('Settings').getAttribute('aria-selected')).resolves.toBe('true');
  await expect(tab('Settings').getAttribute('tabindex')).resolves.toBe('0');
  await expect(tab('Secrets').getAttribute('tabindex')).resolves.toBe('-1');
});

test('Settings shows the project’s name and its id with Copy, as `secrets setup` asks for it', async () => {
  const panel = page.getByRole('tabpanel', { name: 'Settings' });
  await panel.getByText('payments', { exact: true }).waitFor();
  const id = panel.getByLabel('Project id');
  const projectId = await id.inputValue();
  expect(new URL(page.url()).hash).toBe(`#/projects/${projectId}/settings`);
  await panel.getByRole('button', { name: 'Copy' }).click();
  await status('Copied to the clipboard.').waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(projectId);
  await checkScreen('project-settings');
});

test('adding an unknown e-mail shows the API error in words', async () => {
  await openTab('Members');
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
  const sentences = () => page.locator('td[data-label="What happened"]').allTextContents();
  await openTab('Activity');
  await page.getByRole('rowheader', { name: 'project.created' }).waitFor();
  await expect(eventTypes()).resolves.toEqual(['member.removed', 'member.added', 'project.created']);
  // In words, the project by its name, not its id.
  await expect(sentences()).resolves.toEqual([`Removed ${bob}`, `Added ${bob} as admin`, 'Created project “payments”']);
  await checkScreen('project-activity-members');

  await nav('Activity').click();
  await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
  await page.getByRole('rowheader', { name: 'token.created' }).first().waitFor();
  // The projects' names come with a read of their own, which may answer after the trail's.
  await page.getByRole('cell', { name: `Removed ${bob} from “payments”`, exact: true }).waitFor();
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
  await expect(sentences()).resolves.toEqual([
    `Removed ${bob} from “payments”`,
    `Added ${bob} as admin to “payments”`,
    'Created project “payments”',
    expect.stringMatching(/^Rotated token “office”: it works until .+; its replacement expires .+$/),
    expect.stringMatching(/^Rotated token “ci-runners”: it works until .+; its replacement expires .+$/),
    expect.stringMatching(/^Rotated token “office”: it works until .+; its replacement expires .+$/),
    expect.stringMatching(/^Created token “office” with admin; it expires .+$/),
    expect.stringMatching(/^Created token “ci-runners” with read:secrets; it expires .+$/),
    'Revoked token “deploy-bot”',
    expect.stringMatching(/^Created token “deploy-bot” with read:secrets and admin; it expires .+$/),
  ]);
  await page.getByLabel('Type').selectOption('token.revoked');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('rowheader', { name: 'token.created' }).first().waitFor({ state: 'detached' });
  await expect(eventTypes()).resolves.toEqual(['token.revoked']);
  await checkScreen('activity');

  await nav('Projects').click();
  await page.getByRole('link', { name: 'payments' }).click();
  await openTab('Members');
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
  // Opening the project tells the API he has seen it (its notice goes, which the next test counts on).
  const seen = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/members/me/seen'),
  );
  await page.goto(projectUrl);
  await page.getByRole('tabpanel', { name: 'Members' }).waitFor();
  await bobRow.waitFor();
  // The trail is for owners and admins: no Activity tab, once the role is known.
  await tab('Activity').waitFor({ state: 'detached' });
  await expect(page.getByRole('tablist', { name: 'Project' }).getByRole('tab').allTextContents()).resolves.toEqual([
    'Secrets',
    'Members',
    'Compare',
    'Changes',
    'Service accounts',
    'Settings',
  ]);
  await expect(page.getByRole('button', { name: 'Add member' }).count()).resolves.toBe(0);
  await expect(page.getByRole('button', { name: 'Remove' }).count()).resolves.toBe(0);
  await expect(page.getByLabel('E-mail').count()).resolves.toBe(0);
  await seen;

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(ada);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
});

/** Signs the page out and in again as `email`, back at the tokens screen. */
const signInAs = async (email: string) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
};

test('a person added to projects is told by whom on every screen until they open each, and may leave one after a confirmation', async () => {
  // Someone bob never asked adds him to two projects of theirs, behind the page's back.
  const mallory = `mallory-${randomUUID().slice(0, 8)}@example.com`;
  const bearer = await sessionOf(mallory);
  const project = async (name: string): Promise<string> => {
    const created = await api('/api/v1/projects', { method: 'POST', bearer, body: JSON.stringify({ name }) });
    const { projectId } = ((await created.json()) as { data: { projectId: string } }).data;
    const added = await api(`/api/v1/projects/${projectId}/members`, {
      method: 'POST',
      bearer,
      body: JSON.stringify({ email: bob, role: 'member' }),
    });
    expect(added.status).toBe(200);
    return projectId;
  };
  const projectIds = [await project('hostile'), await project('chores')];
  /** A project's link in the project list (a notice links it too). */
  const listed = (name: string) => page.getByRole('table').getByRole('link', { name, exact: true });

  await signInAs(bob);
  const notices = page.getByRole('region', { name: 'Projects you were added to' });
  const notice = (name: string) => notices.getByRole('listitem').filter({ hasText: `Added to ${name} by ${mallory}` });
  await notice('hostile').waitFor();
  await notice('chores').waitFor();
  await expect(notices.getByRole('listitem').count()).resolves.toBe(2);
  await expect(notice('chores').getByRole('time').count()).resolves.toBe(1);
  await checkScreen('added-notices');

  // Opening a project is what makes its notice go, on every screen and after a reload.
  await notice('chores').getByRole('link', { name: 'chores' }).click();
  await page.getByRole('heading', { name: 'chores', level: 1 }).waitFor();
  await notice('chores').waitFor({ state: 'detached' });
  await nav('Projects').click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  // Away from the project, the notice stays gone once the API has recorded the opening, which the reload reads.
  await notice('chores').waitFor({ state: 'detached' });
  await page.reload();
  await notice('hostile').waitFor();
  await expect(notice('chores').count()).resolves.toBe(0);
  await listed('chores').waitFor();

  // Leave asks first; Cancel keeps the membership.
  await notice('hostile').getByRole('button', { name: 'Leave hostile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave “hostile”?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  await notice('hostile').getByRole('button', { name: 'Leave hostile' }).click();
  await checkScreen('leave-project');
  await dialog.getByRole('button', { name: 'Leave' }).click();
  await dialog.waitFor({ state: 'detached' });
  await notices.getByRole('status').filter({ hasText: 'You left “hostile”.' }).waitFor();
  await expectFocusOn('textContent', 'Projects you were added to');
  await expect(notices.getByRole('listitem').count()).resolves.toBe(0);
  await listed('chores').waitFor();
  await expect(listed('hostile').count()).resolves.toBe(0);
  const me = await api('/api/v1/me', { bearer: await sessionOf(bob) });
  expect(((await me.json()) as { data: { addedTo: unknown[] } }).data.addedTo).toEqual([]);

  // Any member but the owner may leave from the project's Settings too.
  await listed('chores').click();
  await openTab('Settings');
  await page.getByRole('button', { name: 'Leave project' }).click();
  await page.getByRole('dialog', { name: 'Leave “chores”?' }).getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  await listed('payments').waitFor();
  await expect(listed('chores').count()).resolves.toBe(0);

  // Mallory's trail of each project says bob left it.
  for (const projectId of projectIds) {
    const trail = await api(`/api/v1/projects/${projectId}/audit-events?type=member.left`, { bearer });
    const events = ((await trail.json()) as { data: { actor: { email: string }; target: { email: string } }[] }).data;
    expect(events.map((event) => [event.actor.email, event.target.email])).toEqual([[bob, bob]]);
  }

  await signInAs(ada);
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

/** Whether the page's focused element has `value` as its `name` (run in the page). */
const focusHas = ([name, value]: readonly [string, string | null]): boolean =>
  (globalThis as unknown as { document: { activeElement: Record<string, unknown> | null } }).document.activeElement?.[
    name
  ] === value;

/**
 * The focused element's `property`, once it is `expected`: focus moves in an effect after a render, so
 * an immediate look could see the element before it, on a busy machine. The wait takes a function, not
 * a string: Playwright evaluates a string predicate again on each poll, which the dashboard's CSP (no
 * `unsafe-eval`) refuses with a console error, seen when the first look came too early.
 */
const expectFocusOn = async (property: 'id' | 'textContent', expected: string | null) => {
  await page.waitForFunction(focusHas, [property, expected] as const, { timeout: 10_000 }).catch(() => undefined);
  await expect(page.evaluate(`document.activeElement.${property}`)).resolves.toBe(expected);
};

/** A row of the secrets table, by the secret's name. */
const secretRow = (name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/** A session of `email` for calls behind the page's back, as another tab would make them. */
const sessionOf = async (email: string): Promise<string> => {
  const reply = await api('/_dev/idp/token', { method: 'POST', body: JSON.stringify({ email }) });
  return ((await reply.json()) as { token: string }).token;
};

/** The API path of the shown project, from the page's address. */
const projectPath = () => `/api/v1/projects/${/#\/projects\/([^/]+)/.exec(page.url())?.[1]}`;

/** Values that are plainly examples: they must not be in the page until their Reveal. */
const DATABASE_URL = 'postgres://demo:not-a-real-password@db.example.test/app';
const CHANGED_ELSEWHERE = 'postgres://demo:changed-in-another-tab@db.example.test/app';
const SECOND_URL = 'postgres://demo:second-example@db.example.test/app';

const status = (text: string) => page.getByRole('status').filter({ hasText: text });

/** An environment of the segmented control, by its name (its count follows the name). */
const environmentChoice = (name: string) => page.getByRole('radio', { name: new RegExp(`^${name}, `) });

test('Settings lists the environments with their counts, and the owner adds one and deletes one', async () => {
  await nav('Projects').click();
  await page.getByRole('link', { name: 'payments' }).click();
  await openTab('Settings');
  const environments = page.getByRole('region', { name: 'Environments' });
  await environments.getByRole('rowheader', { name: 'staging' }).waitFor();
  await expect(environments.getByRole('rowheader').allTextContents()).resolves.toEqual([
    'development',
    'production',
    'staging',
  ]);
  const name = page.getByLabel('Environment name');
  await name.fill('Preview');
  await page.getByRole('button', { name: 'Add environment' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: 'Use 1 to 32 characters of a-z, 0-9 and -, starting and ending with a letter or a digit' })
    .waitFor();
  await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
  await name.fill('staging');
  await page.getByRole('button', { name: 'Add environment' }).click();
  await page.getByRole('alert').filter({ hasText: 'Environment already exists' }).waitFor();
  await name.fill('preview');
  await page.getByRole('button', { name: 'Add environment' }).click();
  await environments.getByRole('rowheader', { name: 'preview' }).waitFor();
  await expect(name.inputValue()).resolves.toBe('');
  // The button stands apart from its field.
  const field = await name.boundingBox();
  const button = await page.getByRole('button', { name: 'Add environment' }).boundingBox();
  expect(button && field && button.x - (field.x + field.width)).toBeGreaterThanOrEqual(8);

  await environments
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'production' }) })
    .getByRole('button', { name: 'Delete' })
    .click();
  await page
    .getByRole('dialog', { name: 'Delete the environment “production”?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await environments.getByRole('rowheader', { name: 'production' }).waitFor({ state: 'detached' });
});

test('the Secrets tab offers the environments with their counts, the new one chosen', async () => {
  await openTab('Secrets');
  await environmentChoice('preview').waitFor();
  await page.getByRole('radio', { name: /^production, / }).waitFor({ state: 'detached' });
  const choices = page.getByRole('group', { name: 'Environment' }).getByRole('radio');
  await expect(choices.evaluateAll((radios) => radios.map((radio) => radio.getAttribute('value')))).resolves.toEqual([
    'development',
    'preview',
    'staging',
  ]);
  await expect(environmentChoice('preview').isChecked()).resolves.toBe(true);
  await page.getByText('No secrets in preview yet: add one, or import a .env file.').waitFor();
  await environmentChoice('development').check();
  await page.getByText('No secrets in development yet: add one, or import a .env file.').waitFor();
  await checkScreen('secrets-empty');
});

test('adds a secret in a dialog: a refused name and a taken one are said beside the field, and the list shows no value', async () => {
  await page.getByRole('button', { name: 'Add secret' }).click();
  const form = page.getByRole('form', { name: 'Add secret' });
  const name = form.getByLabel('Name', { exact: true });
  await expectFocusOn('id', 'secret-name');
  await name.fill('HAS-DASH');
  await form.getByLabel('Value', { exact: true }).fill('x');
  await form.getByRole('button', { name: 'Save' }).click();
  const nameError = page.locator('#secret-name-error');
  await nameError.waitFor();
  await expect(nameError.textContent()).resolves.toBe(
    'Use 1 to 128 characters of A-Z, a-z, 0-9 and _, not starting with a digit (an environment variable name), other than __proto__',
  );
  await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
  await expect(name.getAttribute('aria-describedby')).resolves.toContain('secret-name-error');
  // The name's error is the only one: nothing under Value, no "Validation failed" at the bottom.
  await expect(form.getByRole('alert').allTextContents()).resolves.toEqual([await nameError.textContent()]);
  await checkScreen('secret-add-error');

  await name.fill('DATABASE_URL');
  await form.getByLabel('Value', { exact: true }).fill(DATABASE_URL);
  await form.getByRole('button', { name: 'Save' }).click();
  const row = secretRow('DATABASE_URL');
  await row.waitFor();
  await form.waitFor({ state: 'detached' });
  await status('Saved DATABASE_URL as version 1.').waitFor();
  await page.getByRole('radio', { name: 'development, 1 secret' }).waitFor();
  await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
    'Hidden',
    '1',
    expect.stringMatching(new RegExp(`^${ada}.`)),
    'RevealEditHistoryDelete',
  ]);
  await expect(row.getByRole('cell').nth(2).locator('time').count()).resolves.toBe(1);
  await expectFocusOn('id', 'reveal-DATABASE_URL');
  expect(await page.content()).not.toContain(DATABASE_URL);

  await page.getByRole('button', { name: 'Add secret' }).click();
  await name.fill('DATABASE_URL');
  await form.getByLabel('Value', { exact: true }).fill('another value');
  await form.getByRole('button', { name: 'Save' }).click();
  await form.getByRole('alert').filter({ hasText: 'Secret version conflict' }).waitFor();
  await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe('1');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await form.waitFor({ state: 'detached' });
});

test('a value over the limit is refused beside the field with its size and the limit, in the API’s words', async () => {
  await page.getByRole('button', { name: 'Add secret' }).click();
  const form = page.getByRole('form', { name: 'Add secret' });
  await form.getByLabel('Name', { exact: true }).fill('BIG_VALUE');
  await form.getByLabel('Value', { exact: true }).fill('x'.repeat(70 * 1024));
  await form.getByRole('button', { name: 'Save' }).click();
  const valueError = page.locator('#secret-value-error');
  await valueError.waitFor();
  await expect(valueError.textContent()).resolves.toBe(
    'A value has at most 65536 bytes in UTF-8: this one has 71680 bytes.',
  );
  await expect(form.getByRole('alert').count()).resolves.toBe(1);
  await form.getByRole('button', { name: 'Cancel' }).click();
  await form.waitFor({ state: 'detached' });
});

test('names that are also names of a plain object’s properties are secrets like any other', async () => {
  const names = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
  const reply = await api(`${projectPath()}/environments/development/secrets`, {
    method: 'PATCH',
    bearer: await sessionOf(ada),
    body: JSON.stringify({ set: Object.fromEntries(names.map((name) => [name, `value of ${name}`])) }),
  });
  expect(reply.status).toBe(200);
  await page.reload();
  for (const name of names) await secretRow(name).waitFor();
  // No alert box, empty or not, beside any of them.
  await expect(page.getByRole('alert').count()).resolves.toBe(0);
  await secretRow('toString').getByRole('button', { name: 'Reveal' }).click();
  await secretRow('toString').getByText('value of toString').waitFor();
  await secretRow('toString').getByRole('button', { name: 'Hide' }).click();
  await expect(page.getByRole('alert').count()).resolves.toBe(0);
  const removed = await api(`${projectPath()}/environments/development/secrets`, {
    method: 'PATCH',
    bearer: await sessionOf(ada),
    body: JSON.stringify({ delete: names }),
  });
  expect(removed.status).toBe(200);
  await page.reload();
  // Once the list is read again (no row at all before it is), for the steps after: Import's preview reads it.
  await secretRow('DATABASE_URL').waitFor();
  await secretRow('constructor').waitFor({ state: 'detached' });
});

test('Import checks each pasted .env line and sends nothing while one is wrong or there are too many', async () => {
  await page.getByRole('button', { name: 'Import .env' }).click();
  const paste = page.getByLabel('Paste .env');
  await paste.fill(
    [
      '# shared settings',
      'export API_URL=https://api.example.com',
      '1BAD=x',
      'only words here',
      '',
      'GREETING="Hello\\nWorld"',
      'OPEN="never closed',
    ].join('\n'),
  );
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const lineErrors = page.locator('#import-lines-error');
  await lineErrors.waitFor();
  await expect(lineErrors.getByRole('listitem').allTextContents()).resolves.toEqual([
    'Line 3, 1BAD: Not a secret name: use 1 to 128 characters of A-Z, a-z, 0-9 and _, not starting with a digit',
    'Line 4: Not NAME=value: no = sign',
    'Line 7, OPEN: The value’s opening " is never closed',
  ]);
  await expect(paste.getAttribute('aria-invalid')).resolves.toBe('true');
  await checkScreen('secrets-import-error');
  await expect(secretRow('API_URL').count()).resolves.toBe(0);

  await paste.fill(Array.from({ length: 26 }, (_unused, index) => `VAR_${index}=${index}`).join('\n'));
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: '26 secrets: one import sets at most 25, all or none. Nothing was sent.' })
    .waitFor();
  await expect(secretRow('VAR_0').count()).resolves.toBe(0);
});

test('Import says which secrets it would overwrite, and writes over those versions only', async () => {
  const paste = page.getByLabel('Paste .env');
  await paste.fill(
    [
      '# shared settings',
      'export API_URL=https://api.example.com',
      "LOG_LEVEL='debug' # for now",
      'GREETING="Hello\\nWorld"',
      `DATABASE_URL=${DATABASE_URL}`,
    ].join('\n'),
  );
  const preview = page.locator('#import-preview');
  await expect(preview.textContent()).resolves.toBe('Overwrites 1 secret: DATABASE_URL (version 1).Adds 3 secrets.');
  await checkScreen('secrets-import-preview');
  // Meanwhile another tab writes DATABASE_URL: the import, made over version 1, writes nothing.
  const behind = await api(`${projectPath()}/environments/development/secrets/DATABASE_URL`, {
    method: 'PUT',
    bearer: await sessionOf(ada),
    body: JSON.stringify({ value: DATABASE_URL }),
  });
  expect(behind.status).toBe(200);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.locator('#import-error').filter({ hasText: 'Secret version conflict' }).waitFor();
  await expect(secretRow('API_URL').count()).resolves.toBe(0);
  // The list is read again: the form now names the version written meanwhile.
  await preview.filter({ hasText: 'DATABASE_URL (version 2)' }).waitFor();
  await expect(preview.textContent()).resolves.toBe('Overwrites 1 secret: DATABASE_URL (version 2).Adds 3 secrets.');

  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await status('Imported 4 secrets into development.').waitFor();
  for (const name of ['API_URL', 'GREETING', 'LOG_LEVEL']) await secretRow(name).waitFor();
  await secretRow('DATABASE_URL').getByRole('cell', { name: '3', exact: true }).waitFor();
  await page.getByRole('radio', { name: 'development, 4 secrets' }).waitFor();
  await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  expect(await page.content()).not.toContain('https://api.example.com');
});

test('the table filters by name and sorts by a column', async () => {
  const names = () =>
    page.getByRole('region', { name: 'Secrets in development' }).getByRole('rowheader').allTextContents();
  /** Sorts by a column, once the table says it is sorted so. */
  const sortBy = async (column: string, order: 'ascending' | 'descending') => {
    await page.getByRole('button', { name: column, exact: true }).click();
    await page.locator(`th[aria-sort="${order}"]`).filter({ hasText: column }).waitFor();
  };
  await secretRow('LOG_LEVEL').waitFor();
  await expect(names()).resolves.toEqual(['API_URL', 'DATABASE_URL', 'GREETING', 'LOG_LEVEL']);
  await page.getByLabel('Filter by name').fill('url');
  await secretRow('GREETING').waitFor({ state: 'detached' });
  await expect(names()).resolves.toEqual(['API_URL', 'DATABASE_URL']);
  await page.getByLabel('Filter by name').fill('nothing-like-it');
  await page.getByText('No secret of development has “nothing-like-it” in its name.').waitFor();
  await page.getByLabel('Filter by name').fill('');
  await secretRow('GREETING').waitFor();
  await sortBy('Name', 'descending');
  await expect(names()).resolves.toEqual(['LOG_LEVEL', 'GREETING', 'DATABASE_URL', 'API_URL']);
  await sortBy('Version', 'ascending');
  await expect(names().then((list) => list.at(-1))).resolves.toBe('DATABASE_URL');
  await sortBy('Name', 'ascending');
  await expect(names()).resolves.toEqual(['API_URL', 'DATABASE_URL', 'GREETING', 'LOG_LEVEL']);
});

test('Reveal reads one value, a recorded read, with Copy, and Hide takes it out of the page again', async () => {
  await page.reload();
  const row = secretRow('DATABASE_URL');
  await row.waitFor();
  expect(await page.content()).not.toContain(DATABASE_URL);
  await row.getByRole('button', { name: 'Reveal' }).click();
  await row.getByText(DATABASE_URL).waitFor();
  // The button that had the focus stays, now named for what it does next.
  await expectFocusOn('textContent', 'Hide');
  await expect(page.content()).resolves.not.toContain('https://api.example.com');
  await row.getByRole('button', { name: 'Copy' }).click();
  await row.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(DATABASE_URL);
  // Monospace, a word broken only where it must be.
  await expect(
    page.evaluate(`(() => {
      const style = getComputedStyle(document.getElementById('value-DATABASE_URL'));
      return [style.fontFamily.includes('monospace'), style.overflowWrap, style.whiteSpace, style.unicodeBidi];
    })()`),
  ).resolves.toEqual([true, 'break-word', 'pre-wrap', 'plaintext']);
  const greeting = secretRow('GREETING');
  await greeting.getByRole('button', { name: 'Reveal' }).click();
  await expect(greeting.locator('code').textContent()).resolves.toBe('Hello\nWorld');
  await greeting.getByRole('button', { name: 'Hide' }).click();
  await checkScreen('secrets-table');

  const trail = await api(`${projectPath()}/audit-events?type=secret.read`, { bearer: await sessionOf(ada) });
  const reads = ((await trail.json()) as { data: { details: { secrets?: { name: string }[] } }[] }).data;
  expect(reads.flatMap((event) => event.details.secrets?.map((secret) => secret.name) ?? []).sort()).toEqual([
    'DATABASE_URL',
    'GREETING',
    'toString',
  ]);
  await row.getByRole('button', { name: 'Hide' }).click();
  await row.getByText('Hidden').waitFor();
  expect(await page.content()).not.toContain(DATABASE_URL);
});

test('a revealed value with a right-to-left override shows the override by its code point, not reversed', async () => {
  const reply = await api(`${projectPath()}/environments/development/secrets/SPOOFED`, {
    method: 'PUT',
    bearer: await sessionOf(ada),
    body: JSON.stringify({ value: 'invoice\u202Etxt.exe\u200B' }),
  });
  expect(reply.status).toBe(201);
  await page.reload();
  const row = secretRow('SPOOFED');
  await row.getByRole('button', { name: 'Reveal' }).click();
  const code = row.locator('code');
  await code.waitFor();
  await expect(code.textContent()).resolves.toBe('invoiceU+202Etxt.exeU+200B');
  await row.getByRole('button', { name: 'Copy' }).click();
  await row.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe('invoice\u202Etxt.exe\u200B');
  await row.getByRole('button', { name: 'Hide' }).click();
  await api(`${projectPath()}/environments/development/secrets/SPOOFED`, {
    method: 'DELETE',
    bearer: await sessionOf(ada),
  });
  await page.reload();
  await secretRow('DATABASE_URL').waitFor();
});

test('Edit says why it starts empty; after a conflict it says the version now current and offers to write over it', async () => {
  const row = secretRow('DATABASE_URL');
  const behind = await api(`${projectPath()}/environments/development/secrets/DATABASE_URL`, {
    method: 'PUT',
    bearer: await sessionOf(ada),
    body: JSON.stringify({ value: CHANGED_ELSEWHERE }),
  });
  expect(behind.status).toBe(200);
  await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe('3');

  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit “DATABASE_URL”' });
  const value = form.getByLabel('Value', { exact: true });
  await value.waitFor();
  await expectFocusOn('id', await value.getAttribute('id'));
  await expect(value.inputValue()).resolves.toBe('');
  await form.getByText('The current value is not shown here (editing never reads it): type the new value.').waitFor();
  await value.fill(SECOND_URL);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await form.getByRole('alert').filter({ hasText: 'Secret version conflict' }).waitFor();
  await expect(value.getAttribute('aria-invalid')).resolves.toBe('true');
  const over = form.getByRole('button', { name: 'Save over version 4' });
  await over.waitFor();
  await form.getByText(`Version 4 is current now, written by ${ada}`).waitFor();
  await checkScreen('secret-edit-conflict');
  // The list shows the version written elsewhere meanwhile.
  await row.getByRole('cell', { name: '4', exact: true }).waitFor();
  await over.click();
  await status('Saved DATABASE_URL as version 5.').waitFor();
  await row.getByRole('cell', { name: '5', exact: true }).waitFor();
  await form.waitFor({ state: 'detached' });
  await expectFocusOn('id', 'edit-DATABASE_URL');
  expect(await page.content()).not.toContain(SECOND_URL);
});

/** The history dialog of a secret, and its rows by version. */
const historyOf = (name: string) => page.getByRole('region', { name: `History of “${name}”` });
const versionRow = (name: string, version: number) =>
  historyOf(name)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: String(version), exact: true }) });

test('History lists the versions with who and when, with Restore on each but the current one', async () => {
  const row = secretRow('DATABASE_URL');
  await row.getByRole('button', { name: 'History' }).click();
  const history = historyOf('DATABASE_URL');
  await history.getByRole('rowheader').first().waitFor();
  await expect(history.getByRole('rowheader').allTextContents()).resolves.toEqual(['5', '4', '3', '2', '1']);
  await expect(versionRow('DATABASE_URL', 1).getByRole('cell').nth(0).textContent()).resolves.toBe(ada);
  await expect(versionRow('DATABASE_URL', 1).locator('time').count()).resolves.toBe(1);
  await expect(versionRow('DATABASE_URL', 5).getByRole('cell').nth(2).textContent()).resolves.toBe('Current');
  await expect(versionRow('DATABASE_URL', 5).getByRole('button', { name: 'Restore' }).count()).resolves.toBe(0);
  await expect(history.getByRole('button', { name: 'Restore' }).count()).resolves.toBe(4);
  await checkScreen('secret-history');

  await versionRow('DATABASE_URL', 1).getByRole('button', { name: 'Restore' }).click();
  await status('Restored version 1 of DATABASE_URL as version 6.').waitFor();
  await versionRow('DATABASE_URL', 6).waitFor();
  await row.getByRole('cell', { name: '6', exact: true }).waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await history.waitFor({ state: 'detached' });
  await expectFocusOn('id', 'history-DATABASE_URL');
  await row.getByRole('button', { name: 'Reveal' }).click();
  await row.getByText(DATABASE_URL).waitFor();
  await row.getByRole('button', { name: 'Hide' }).click();
});

test('Delete asks first; the secret leaves the list for the Deleted view, whose History and Restore bring it back', async () => {
  await secretRow('DATABASE_URL').getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete “DATABASE_URL”?' });
  await dialog.waitFor();
  await checkScreen('secret-delete-confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  await expect(secretRow('DATABASE_URL').count()).resolves.toBe(1);

  await secretRow('DATABASE_URL').getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await secretRow('DATABASE_URL').waitFor({ state: 'detached' });
  await status('Deleted DATABASE_URL.').waitFor();
  await page.getByRole('radio', { name: 'development, 3 secrets' }).waitFor();

  // After a reload too: the project's trail lists it, not only this page's memory.
  await page.reload();
  await page.getByRole('radio', { name: 'Deleted' }).check();
  const deleted = page.getByRole('region', { name: 'Deleted from development' });
  const row = deleted
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'DATABASE_URL', exact: true }) });
  await row.waitFor();
  await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe(ada);
  await checkScreen('secrets-deleted');
  await row.getByRole('button', { name: 'History' }).click();
  await versionRow('DATABASE_URL', 7).getByRole('cell', { name: 'Deleted' }).waitFor();
  await expect(versionRow('DATABASE_URL', 7).getByRole('button', { name: 'Restore' }).count()).resolves.toBe(0);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expectFocusOn('id', 'deleted-history-DATABASE_URL');

  await row.getByRole('button', { name: 'Restore' }).click();
  await status('Restored DATABASE_URL (version 6) as version 8.').waitFor();
  await row.waitFor({ state: 'detached' });
  await page.getByRole('radio', { name: 'Live' }).check();
  await secretRow('DATABASE_URL').getByRole('cell', { name: '8', exact: true }).waitFor();
});

test('the project’s activity says in words which secret changed, to which version, where, by whom and from where', async () => {
  const projectId = /#\/projects\/([^/]+)/.exec(page.url())?.[1] ?? '';
  await openTab('Activity');
  const row = (sentence: string) =>
    page.getByRole('row').filter({ has: page.getByRole('cell', { name: sentence, exact: true }) });
  await row('Restored DATABASE_URL (version 8) in development').waitFor();
  await expect(
    row('Restored DATABASE_URL (version 8) in development').getByRole('cell').allTextContents(),
  ).resolves.toEqual([expect.any(String), ada, 'Restored DATABASE_URL (version 8) in development', '127.0.0.1']);
  for (const sentence of [
    'Deleted DATABASE_URL (version 7) in development',
    'Updated DATABASE_URL (version 2) in development',
    'Read GREETING (version 1) in development',
    'Created API_URL (version 1) in development',
    'Created DATABASE_URL (version 1) in development',
    'Created environment preview',
  ]) {
    await expect(row(sentence).count()).resolves.toBe(1);
  }
  await expect(
    row('Restored DATABASE_URL (version 8) in development').getByRole('rowheader').textContent(),
  ).resolves.toBe('secret.restored');
  const shown = await page.locator('main').textContent();
  expect(shown).not.toContain('[object Object]');
  expect(shown).not.toContain(projectId);
  await checkScreen('project-activity');
});

/**
 * Makes the stored session's ID token fail to verify, as after it expired (browser code as text: the
 * tests are compiled without the DOM's types).
 */
const spoilStoredSession = () =>
  page.evaluate(`
    for (const key of Object.keys(sessionStorage).filter((name) => name.startsWith('oidc.user:'))) {
      const user = JSON.parse(sessionStorage.getItem(key));
      sessionStorage.setItem(key, JSON.stringify({ ...user, id_token: user.id_token + 'x' }));
    }
  `);

test('a session the API rejects sends the person to sign in again, keeping what they typed, and says the value was not kept', async () => {
  await openTab('Secrets');
  await page.getByRole('button', { name: 'Add secret' }).click();
  const form = page.getByRole('form', { name: 'Add secret' });
  await form.getByLabel('Name', { exact: true }).fill('HALF_TYPED');
  await form.getByLabel('Value', { exact: true }).fill('typed but never saved');
  const secretsUrl = page.url();
  await spoilStoredSession();
  await page.reload();
  await page.getByRole('alert').filter({ hasText: 'Your session expired. Sign in again.' }).waitFor();
  // The provider's own session is still alive, so it signs the person in without asking again.
  await page.getByRole('button', { name: 'Sign in' }).click();
  await form.waitFor();
  expect(page.url()).toBe(secretsUrl);
  await expect(form.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('HALF_TYPED');
  await expect(form.getByLabel('Value', { exact: true }).inputValue()).resolves.toBe('');
  await form.getByText('The value was not kept: values never go into this browser’s storage. Type it again.').waitFor();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await form.waitFor({ state: 'detached' });

  await nav('Projects').click();
  // The token screen has a Name field too: type only once the projects' form is there.
  await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  await page.getByLabel('Name').fill('half-typed');
  await spoilStoredSession();
  await page.reload();
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
