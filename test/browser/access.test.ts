import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { arrange, devSession, type Reply } from '../integration/harness';
import { type NpmService, startNpmService } from '../integration/npm-start';
import {
  accessibilityViolations,
  type BrowserPool,
  type BrowserSession,
  launchBrowser,
  screenshotEachWidth,
} from './browser';

/**
 * Access per environment and change requests as people use them: Ada, the owner, sets what Cy, a
 * plain member, may do in each environment, protects production, and proposes changes there; Bob, an
 * admin, approves one in his own browser and sees the new value; Cy sees only what his access allows.
 * One Chromium, a context per person. The steps run in order, each on the state the one before left.
 */

let service: NpmService;
let browser: BrowserPool;
let ada: BrowserSession;
let bob: BrowserSession;
let cy: BrowserSession;
const tag = randomUUID().slice(0, 8);
const adaEmail = `ada-${tag}@example.com`;
const bobEmail = `bob-${tag}@example.com`;
const cyEmail = `cy-${tag}@example.com`;
const daveEmail = `dave-${tag}@example.com`;
let adaBearer = '';
let projectId = '';
/** What Ada proposes for NEW_KEY: plainly an example. */
const NEW_VALUE = `proposed-value-${tag}`;

/** Arranges what a test does not check, through the API as Ada (or `bearer`); fails on a refusal. */
const arrangeOk = async (method: string, path: string, json?: unknown, bearer = adaBearer): Promise<Reply> => {
  const reply = await arrange(service, method, path, { token: bearer, json });
  if (reply.status >= 300) throw new Error(`${method} ${path} answered ${reply.status} ${reply.text}`);
  return reply;
};

/** A person who has signed in once (a member must have), with a session for the API. */
const signedInOnce = async (email: string): Promise<string> => {
  const bearer = await devSession(service, email);
  await arrangeOk('GET', '/api/v1/tokens', undefined, bearer);
  return bearer;
};

const projectPath = () => `/api/v1/projects/${projectId}`;

/** The screen passes axe-core, and looks right at both widths (saved for people to look at). */
const checkScreen = async (page: Page, name: string) => {
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await screenshotEachWidth(page, name)).toEqual([]);
};

/** Signs in from the sign-in screen through the development provider's page. */
const signIn = async (page: Page, email: string) => {
  await page.goto(`${service.baseUrl}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
};

/** Opens a tab of the project's home by its address, and waits until its panel is there. */
const openTab = async (page: Page, tab: string) => {
  await page.goto(`${service.baseUrl}/#/projects/${projectId}/${tab.toLowerCase()}`);
  await page.getByRole('tabpanel', { name: tab }).waitFor();
};

const rowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

/** An environment of the segmented control, by its name (its count follows the name). */
const environmentChoice = (page: Page, name: string) => page.getByRole('radio', { name: new RegExp(`^${name}, `) });

/** A plain member's level in one environment, in the access matrix. */
const levelOf = (page: Page, email: string, environment: string) =>
  page.getByRole('combobox', { name: `Access of ${email} to ${environment}` });

/** Cy's access by environment, as the API answers it. */
const accessOf = async (email: string) => {
  const reply = await arrangeOk('GET', `${projectPath()}/members`);
  return (reply.body.data as { email: string; access: Record<string, string> }[]).find(
    (member) => member.email === email,
  )?.access;
};

/** The change request of production that names `name`, by its row on the Changes tab. */
const requestRow = (page: Page, name: string) =>
  page
    .getByRole('region', { name: /^Change requests in production/ })
    .getByRole('row')
    .filter({ hasText: name });

beforeAll(async () => {
  service = await startNpmService();
  browser = await launchBrowser();
  ada = await browser.newSession();
  bob = await browser.newSession();
  cy = await browser.newSession();
  adaBearer = await signedInOnce(adaEmail);
  await Promise.all([bobEmail, cyEmail, daveEmail].map(signedInOnce));
  projectId = (await arrangeOk('POST', '/api/v1/projects', { name: 'payments' })).body.data.projectId;
  await arrangeOk('POST', `${projectPath()}/members`, { email: bobEmail, role: 'admin' });
  await arrangeOk('POST', `${projectPath()}/members`, { email: cyEmail, role: 'member' });
  await arrangeOk('POST', `${projectPath()}/members`, { email: daveEmail, role: 'member' });
  await arrangeOk('PUT', `${projectPath()}/environments/production/secrets/API_URL`, {
    value: 'https://api.example.test',
  });
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

test('the Members tab shows each member’s access per environment, and the owner sets a plain member’s level at once', async () => {
  const { page } = ada;
  await signIn(page, adaEmail);
  await openTab(page, 'Members');
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByRole('rowheader', { name: cyEmail }).waitFor();
  // The controls a role is given come once the project's role has come, which may be after the list.
  await page.getByText('Your role: owner', { exact: true }).waitFor();
  // The environments' columns come with a read of their own, which may answer after the list's.
  await members.getByRole('columnheader', { name: 'staging' }).waitFor();
  await expect(members.getByRole('columnheader').allTextContents()).resolves.toEqual([
    'E-mail',
    'Role',
    'development',
    'production',
    'staging',
    'Actions',
  ]);
  // Owners and admins write every environment: shown, not offered.
  await expect(rowOf(page, adaEmail).getByRole('cell').allTextContents()).resolves.toEqual([
    'owner',
    'write',
    'write',
    'write',
    '',
  ]);
  await expect(rowOf(page, bobEmail).getByRole('cell').allTextContents()).resolves.toEqual([
    'admin',
    'write',
    'write',
    'write',
    'Remove',
  ]);
  // A member added today keeps write everywhere: the default.
  await expect(levelOf(page, cyEmail, 'production').inputValue()).resolves.toBe('write');
  await levelOf(page, cyEmail, 'production').selectOption('read');
  await status(page, `${cyEmail} now has read access to production.`).waitFor();
  await levelOf(page, cyEmail, 'staging').selectOption('none');
  await status(page, `${cyEmail} now has no access to staging.`).waitFor();
  await expect(accessOf(cyEmail)).resolves.toEqual({ development: 'write', production: 'read', staging: 'none' });
  await checkScreen(page, 'members-access');

  await page.reload();
  await expect(levelOf(page, cyEmail, 'production').inputValue()).resolves.toBe('read');
  await expect(levelOf(page, cyEmail, 'staging').inputValue()).resolves.toBe('none');
});

test('a level the API refuses is said beside its field, in the API’s words', async () => {
  const { page } = ada;
  await arrangeOk('DELETE', `${projectPath()}/members/${encodeURIComponent(daveEmail)}`);
  const field = levelOf(page, daveEmail, 'development');
  await field.selectOption('read');
  const error = rowOf(page, daveEmail).getByRole('alert');
  await expect(error.textContent()).resolves.toBe('Member not found');
  await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
  const errorId = await error.getAttribute('id');
  await expect(field.getAttribute('aria-describedby')).resolves.toContain(errorId);
  await checkScreen(page, 'members-access-error');
});

test('a plain member sees the levels but cannot change them, gets no write control where he reads, and no secret where he has no access', async () => {
  const { page } = cy;
  await signIn(page, cyEmail);
  await openTab(page, 'Members');
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByRole('rowheader', { name: cyEmail }).waitFor();
  await page.getByText('Your role: member', { exact: true }).waitFor();
  await members.getByRole('columnheader', { name: 'staging' }).waitFor();
  await expect(members.getByRole('combobox').count()).resolves.toBe(0);
  await expect(rowOf(page, cyEmail).getByRole('cell').allTextContents()).resolves.toEqual([
    'member',
    'write',
    'read',
    'none',
  ]);

  await openTab(page, 'Secrets');
  await environmentChoice(page, 'production').check();
  await rowOf(page, 'API_URL').waitFor();
  await page.getByText('Your access to production is read: you can reveal its secrets, not change them.').waitFor();
  for (const name of ['Add secret', 'Import .env', 'Edit', 'Delete', 'Restore']) {
    await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
  }
  await expect(rowOf(page, 'API_URL').getByRole('button', { name: 'Reveal' }).count()).resolves.toBe(1);
  await checkScreen(page, 'secrets-read-only');

  await environmentChoice(page, 'staging').check();
  await page.getByText('You have no access to staging.').waitFor();
  await expect(page.getByRole('table').count()).resolves.toBe(0);
  await expect(page.getByRole('button', { name: 'Add secret' }).count()).resolves.toBe(0);
  await checkScreen(page, 'secrets-no-access');
});

test('Settings suggests protecting production; the owner protects it, and sets approvals and a default access', async () => {
  const { page } = ada;
  await openTab(page, 'Settings');
  const environments = page.getByRole('region', { name: 'Environments' });
  const production = rowOf(page, 'production');
  await production.waitFor();
  await expect(production.getByRole('checkbox', { name: 'Protected' }).isChecked()).resolves.toBe(false);
  await page.getByText('production is not protected: whoever may write there changes its secrets at once.').waitFor();
  await page.getByRole('button', { name: 'Protect production' }).click();
  await status(page, 'production is protected: its changes wait for 1 approval.').waitFor();
  await expect(production.getByRole('checkbox', { name: 'Protected' }).isChecked()).resolves.toBe(true);
  await expect(page.getByRole('button', { name: 'Protect production' }).count()).resolves.toBe(0);

  await production.getByRole('combobox', { name: 'Approvals' }).selectOption('2');
  await status(page, 'production’s changes wait for 2 approvals.').waitFor();
  await production.getByRole('combobox', { name: 'Approvals' }).selectOption('1');
  await status(page, 'production’s changes wait for 1 approval.').waitFor();
  await rowOf(page, 'development').getByRole('combobox', { name: 'Default access for members' }).selectOption('read');
  await status(page, 'Members without a level of their own now have read access to development.').waitFor();
  const listed = (await arrangeOk('GET', `${projectPath()}/environments`)).body.data as {
    name: string;
    protected: boolean;
    approvals: number;
    defaultAccess: string;
  }[];
  expect(
    listed.map(({ name, protected: isProtected, approvals, defaultAccess }) => ({
      name,
      isProtected,
      approvals,
      defaultAccess,
    })),
  ).toEqual([
    { name: 'development', isProtected: false, approvals: 1, defaultAccess: 'read' },
    { name: 'production', isProtected: true, approvals: 1, defaultAccess: 'write' },
    { name: 'staging', isProtected: false, approvals: 1, defaultAccess: 'write' },
  ]);
  await expect(environments.getByRole('checkbox', { name: 'Protected' }).count()).resolves.toBe(3);
  await checkScreen(page, 'environment-settings');
});

test('in the protected environment Add secret and Delete are proposals, which say they wait for approval', async () => {
  const { page } = ada;
  await openTab(page, 'Secrets');
  await environmentChoice(page, 'production').check();
  await page.getByRole('heading', { name: 'Secrets in production Protected' }).waitFor();
  await page.getByRole('button', { name: 'Add secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose change: add secret' });
  await dialog.getByLabel('Name', { exact: true }).fill('NEW_KEY');
  await dialog.getByLabel('Value', { exact: true }).fill(NEW_VALUE);
  await dialog.getByLabel('Note (optional)').fill('The new key for the payments provider');
  await checkScreen(page, 'propose-add');
  await dialog.getByRole('button', { name: 'Propose change' }).click();
  await dialog.waitFor({ state: 'detached' });
  await status(page, 'Proposed: waiting for approval.').waitFor();
  // Nothing is written yet.
  await expect(rowOf(page, 'NEW_KEY').count()).resolves.toBe(0);
  const listed = (await arrangeOk('GET', `${projectPath()}/environments/production/secrets`)).body.data as {
    name: string;
  }[];
  expect(listed.map((secret) => secret.name)).toEqual(['API_URL']);

  await rowOf(page, 'API_URL').getByRole('button', { name: 'Delete' }).click();
  const remove = page.getByRole('dialog', { name: 'Propose change: delete “API_URL”' });
  await remove.getByLabel('Note (optional)').fill('No longer called');
  await remove.getByRole('button', { name: 'Propose change' }).click();
  await remove.waitFor({ state: 'detached' });
  await status(page, 'Proposed: waiting for approval.').waitFor();
  await expect(rowOf(page, 'API_URL').count()).resolves.toBe(1);
});

test('the Changes tab lists the requests with their author, note, status and diff; the author may cancel, not approve', async () => {
  const { page } = ada;
  await status(page, 'Proposed: waiting for approval.').getByRole('link', { name: 'See it in Changes' }).click();
  await page.getByRole('tabpanel', { name: 'Changes' }).waitFor();
  await expect(environmentChoice(page, 'production').isChecked()).resolves.toBe(true);
  const added = requestRow(page, 'NEW_KEY');
  await added.waitFor();
  await expect(added.getByRole('rowheader').textContent()).resolves.toBe('NEW_KEY: set, none → new value');
  await expect(added.textContent()).resolves.toContain('The new key for the payments provider');
  await expect(added.textContent()).resolves.toContain(adaEmail);
  await expect(added.textContent()).resolves.toContain('open: 0 of 1 approval');
  await expect(requestRow(page, 'API_URL').getByRole('rowheader').textContent()).resolves.toBe(
    'API_URL: delete, version 1 → deleted',
  );
  // A row's steps come once the person is known (a read of its own): none is offered before.
  await added.getByRole('button', { name: 'Cancel' }).waitFor();
  await added.getByRole('button', { name: 'Apply without approval' }).waitFor();
  await expect(added.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
  await expect(added.getByRole('button', { name: 'Reject' }).count()).resolves.toBe(0);
  await checkScreen(page, 'changes');
});

test('another admin shows the proposed values (a recorded read), approves, and the secret has its new value', async () => {
  const { page } = bob;
  await signIn(page, bobEmail);
  await openTab(page, 'Changes');
  await environmentChoice(page, 'production').check();
  const added = requestRow(page, 'NEW_KEY');
  await added.getByRole('button', { name: 'Show values' }).click();
  const values = page.getByRole('dialog', { name: 'Proposed values' });
  await values.getByText(NEW_VALUE).waitFor();
  await values.getByText('This read is recorded in the project’s activity.').waitFor();
  await checkScreen(page, 'change-values');
  await values.getByRole('button', { name: 'Close' }).click();
  await values.waitFor({ state: 'detached' });
  await expect(added.getByRole('button', { name: 'Cancel' }).count()).resolves.toBe(0);
  await added.getByRole('button', { name: 'Approve' }).click();
  await status(page, 'Approved: the change is applied to production.').waitFor();
  await added.filter({ hasText: `applied, approved by ${bobEmail}` }).waitFor();
  await checkScreen(page, 'changes-approved');

  await openTab(page, 'Secrets');
  await environmentChoice(page, 'production').check();
  const row = rowOf(page, 'NEW_KEY');
  await row.getByRole('button', { name: 'Reveal' }).click();
  await row.getByText(NEW_VALUE).waitFor();
});

test('a step the API refuses is said in its words; the owner applies a request without approval, giving a reason', async () => {
  // Bob's page still shows the delete as open; Ada cancels it meanwhile.
  await openTab(bob.page, 'Changes');
  await environmentChoice(bob.page, 'production').check();
  await requestRow(bob.page, 'API_URL').getByRole('button', { name: 'Approve' }).waitFor();
  const { page } = ada;
  await page.reload();
  await environmentChoice(page, 'production').check();
  await requestRow(page, 'API_URL').getByRole('button', { name: 'Cancel' }).click();
  await status(page, 'Cancelled: nothing is written.').waitFor();
  await requestRow(bob.page, 'API_URL').getByRole('button', { name: 'Approve' }).click();
  await requestRow(bob.page, 'API_URL').getByRole('alert').filter({ hasText: 'Change request is not open' }).waitFor();

  await openTab(page, 'Secrets');
  await environmentChoice(page, 'production').check();
  await rowOf(page, 'API_URL').getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Propose change: edit “API_URL”' });
  await edit.getByLabel('Value', { exact: true }).fill('https://api-v2.example.test');
  await edit.getByRole('button', { name: 'Propose change' }).click();
  await status(page, 'Proposed: waiting for approval.').getByRole('link', { name: 'See it in Changes' }).click();
  const edited = requestRow(page, 'API_URL: set, version 1 → new value');
  await edited.getByRole('button', { name: 'Apply without approval' }).click();
  const apply = page.getByRole('dialog', { name: 'Apply without approval?' });
  await apply.getByRole('button', { name: 'Apply without approval' }).click();
  await apply.getByRole('alert').filter({ hasText: 'Give a reason' }).waitFor();
  await apply.getByLabel('Reason').fill('The old address is down');
  await checkScreen(page, 'change-apply');
  await apply.getByRole('button', { name: 'Apply without approval' }).click();
  await apply.waitFor({ state: 'detached' });
  await status(page, 'Applied without approval to production.').waitFor();
  await edited.filter({ hasText: `applied without approval by ${adaEmail}: “The old address is down”` }).waitFor();
  const secret = await arrangeOk('GET', `${projectPath()}/environments/production/secrets/API_URL`);
  expect(secret.body.data).toMatchObject({ version: 2, value: 'https://api-v2.example.test' });
});

test('the pages logged no error', () => {
  expect([...ada.errors, ...bob.errors, ...cy.errors]).toEqual([]);
});
