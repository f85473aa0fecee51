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
 * The Compare tab as people use it: Ada, the owner, compares staging with production, promotes a
 * secret that differs and sees it become the same; once production is protected her promote is a
 * change request, which the Changes tab lists. Cy, a plain member, is told plainly where he may not
 * compare or promote. One Chromium, a context per person; the steps run in order.
 */

let service: NpmService;
let browser: BrowserPool;
let ada: BrowserSession;
let cy: BrowserSession;
const tag = randomUUID().slice(0, 8);
const adaEmail = `ada-${tag}@example.com`;
const cyEmail = `cy-${tag}@example.com`;
let adaBearer = '';
let projectId = '';

/** Arranges what a test does not check, through the API as Ada (or `bearer`); fails on a refusal. */
const arrangeOk = async (method: string, path: string, json?: unknown, bearer = adaBearer): Promise<Reply> => {
  const reply = await arrange(service, method, path, { token: bearer, json });
  if (reply.status >= 300) throw new Error(`${method} ${path} answered ${reply.status} ${reply.text}`);
  return reply;
};

const projectPath = () => `/api/v1/projects/${projectId}`;

const putSecret = (environment: string, name: string, value: string) =>
  arrangeOk('PUT', `${projectPath()}/environments/${environment}/secrets/${name}`, { value });

/** A person who has signed in once (a member must have), with a session for the API. */
const signedInOnce = async (email: string): Promise<string> => {
  const bearer = await devSession(service, email);
  await arrangeOk('GET', '/api/v1/tokens', undefined, bearer);
  return bearer;
};

/** The screen passes axe-core, and looks right at both widths (saved for people to look at). */
const checkScreen = async (page: Page, name: string) => {
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await screenshotEachWidth(page, name)).toEqual([]);
};

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

const comparison = (page: Page) => page.getByRole('region', { name: /^staging compared with production/ });

const rowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/** A row's cells after its name: status, version in each environment, and its Promote checkbox's cell. */
const cellsOf = (page: Page, name: string) => rowOf(page, name).getByRole('cell').allTextContents();

const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

const promoteBox = (page: Page, name: string) => page.getByRole('checkbox', { name: `Promote ${name}` });

beforeAll(async () => {
  service = await startNpmService();
  browser = await launchBrowser();
  ada = await browser.newSession();
  cy = await browser.newSession();
  adaBearer = await signedInOnce(adaEmail);
  await signedInOnce(cyEmail);
  projectId = (await arrangeOk('POST', '/api/v1/projects', { name: 'payments' })).body.data.projectId;
  await arrangeOk('POST', `${projectPath()}/members`, { email: cyEmail, role: 'member' });
  await putSecret('staging', 'SAME_KEY', 'same-everywhere');
  await putSecret('production', 'SAME_KEY', 'same-everywhere');
  await putSecret('staging', 'DIFF_KEY', `staging-value-${tag}`);
  await putSecret('production', 'DIFF_KEY', 'production-value');
  await putSecret('staging', 'ONLY_STAGING', 'staging-only');
  await putSecret('production', 'ONLY_PRODUCTION', 'production-only');
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

test('Compare opens at staging and production, and shows each secret’s status in words and its version in each, differences first', async () => {
  const { page } = ada;
  await signIn(page, adaEmail);
  await openTab(page, 'Compare');
  await expect(page.getByRole('combobox', { name: 'From' }).inputValue()).resolves.toBe('staging');
  await expect(page.getByRole('combobox', { name: 'To' }).inputValue()).resolves.toBe('production');
  const table = comparison(page);
  await table.getByRole('rowheader', { name: 'SAME_KEY' }).waitFor();
  await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual([
    'Name',
    'Status',
    'Version in staging',
    'Version in production',
    'Promote',
  ]);
  await expect(table.getByRole('rowheader').allTextContents()).resolves.toEqual([
    'DIFF_KEY',
    'ONLY_STAGING',
    'ONLY_PRODUCTION',
    'SAME_KEY',
  ]);
  await expect(cellsOf(page, 'DIFF_KEY')).resolves.toEqual(['Different', 'version 1', 'version 1', '']);
  await expect(cellsOf(page, 'ONLY_STAGING')).resolves.toEqual(['Only in staging', 'version 1', 'none', '']);
  await expect(cellsOf(page, 'ONLY_PRODUCTION')).resolves.toEqual(['Only in production', 'none', 'version 1', '']);
  await expect(cellsOf(page, 'SAME_KEY')).resolves.toEqual(['Same', 'version 1', 'version 1', '']);
  await table.getByText('4 secrets: 1 different, 1 only in staging, 1 only in production, 1 the same.').waitFor();
  // Only what a promote can copy is offered: a secret that differs, or that production lacks.
  await expect(table.getByRole('checkbox', { name: /^Promote / }).count()).resolves.toBe(2);
  await promoteBox(page, 'DIFF_KEY').waitFor();
  await promoteBox(page, 'ONLY_STAGING').waitFor();
  // No value is in the page: a compare reads none.
  expect(await page.content()).not.toContain(`staging-value-${tag}`);
  await checkScreen(page, 'compare');

  await table.getByRole('checkbox', { name: 'Only differences' }).check();
  await rowOf(page, 'SAME_KEY').waitFor({ state: 'detached' });
  await expect(table.getByRole('rowheader').count()).resolves.toBe(3);
  await table.getByRole('checkbox', { name: 'Only differences' }).uncheck();
  await rowOf(page, 'SAME_KEY').waitFor();
});

test('Promote with nothing chosen says what to do, beside the button', async () => {
  const { page } = ada;
  await page.getByRole('button', { name: 'Promote' }).click();
  await page.getByRole('alert').filter({ hasText: 'Choose the secrets to promote.' }).waitFor();
  await expect(page.getByRole('dialog').count()).resolves.toBe(0);
});

test('promoting a secret that differs into an open environment asks first, writes it, and it becomes Same', async () => {
  const { page } = ada;
  await promoteBox(page, 'DIFF_KEY').check();
  await page.getByText('1 secret chosen').waitFor();
  await page.getByRole('button', { name: 'Promote' }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote 1 secret from staging to production?' });
  await dialog
    .getByText('Their current values in staging are written into production at once, each as its next version there.')
    .waitFor();
  await dialog
    .getByRole('listitem')
    .filter({ hasText: 'DIFF_KEY: version 1 from staging, over version 1 in production' })
    .waitFor();
  await expect(dialog.getByLabel('Note (optional)').count()).resolves.toBe(0);
  await checkScreen(page, 'compare-promote');
  await dialog.getByRole('button', { name: 'Promote' }).click();
  await dialog.waitFor({ state: 'detached' });
  await status(page, 'Promoted 1 secret from staging to production.').waitFor();
  // The focus is back on Promote, where it was before the dialog.
  await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe('Promote');
  await rowOf(page, 'DIFF_KEY').filter({ hasText: 'Same' }).waitFor();
  await expect(cellsOf(page, 'DIFF_KEY')).resolves.toEqual(['Same', 'version 1', 'version 2', '']);
  await expect(promoteBox(page, 'DIFF_KEY').count()).resolves.toBe(0);
  await comparison(page).getByText('4 secrets: 1 only in staging, 1 only in production, 2 the same.').waitFor();
  const written = await arrangeOk('GET', `${projectPath()}/environments/production/secrets/DIFF_KEY`);
  expect(written.body.data).toMatchObject({ version: 2, value: `staging-value-${tag}` });
});

test('a promote the API refuses is said in the dialog in its words, and the comparison is read again', async () => {
  const { page } = ada;
  await promoteBox(page, 'ONLY_STAGING').check();
  // Someone writes ONLY_STAGING in production after the page compared: the promote is held to what it showed.
  await putSecret('production', 'ONLY_STAGING', 'written-meanwhile');
  await page.getByRole('button', { name: 'Promote' }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote 1 secret from staging to production?' });
  await dialog.getByRole('button', { name: 'Promote' }).click();
  await dialog.getByRole('alert').filter({ hasText: 'Secret version conflict' }).waitFor();
  await rowOf(page, 'ONLY_STAGING').filter({ hasText: 'Different' }).waitFor();
  await dialog
    .getByRole('listitem')
    .filter({ hasText: 'ONLY_STAGING: version 1 from staging, over version 1 in production' })
    .waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  const kept = await arrangeOk('GET', `${projectPath()}/environments/production/secrets/ONLY_STAGING`);
  expect(kept.body.data).toMatchObject({ version: 1, value: 'written-meanwhile' });
});

test('into a protected environment a promote is proposed as a change request, which the Changes tab lists', async () => {
  const { page } = ada;
  await arrangeOk('PATCH', `${projectPath()}/environments/production`, { protected: true });
  await page.reload();
  await page.getByRole('heading', { name: 'staging compared with production Protected' }).waitFor();
  await promoteBox(page, 'ONLY_STAGING').check();
  await page.getByRole('button', { name: 'Promote' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose change: promote 1 secret from staging to production' });
  await dialog
    .getByText(
      'production is protected: this is proposed as a change request, and nothing is written until it has 1 approval.',
    )
    .waitFor();
  await dialog.getByLabel('Note (optional)').fill('Staging’s value, tried there for a week');
  await checkScreen(page, 'compare-propose');
  await dialog.getByRole('button', { name: 'Propose change' }).click();
  await dialog.waitFor({ state: 'detached' });
  const notice = status(
    page,
    'Proposed as a change request in production: nothing is written until it has 1 approval.',
  );
  await notice.waitFor();
  // Nothing is written yet, and the choice is done with.
  await expect(cellsOf(page, 'ONLY_STAGING')).resolves.toEqual(['Different', 'version 1', 'version 1', '']);
  await expect(promoteBox(page, 'ONLY_STAGING').isChecked()).resolves.toBe(false);
  await page.getByText('0 secrets chosen').waitFor();

  await notice.getByRole('link', { name: 'See it in Changes' }).click();
  await page.getByRole('tabpanel', { name: 'Changes' }).waitFor();
  await expect(page.getByRole('radio', { name: /^production, / }).isChecked()).resolves.toBe(true);
  const request = page
    .getByRole('region', { name: /^Change requests in production/ })
    .getByRole('row')
    .filter({ hasText: 'ONLY_STAGING' });
  await expect(request.getByRole('rowheader').textContent()).resolves.toBe('ONLY_STAGING: set, version 1 → new value');
  await expect(request.textContent()).resolves.toContain('Staging’s value, tried there for a week');
  await expect(request.textContent()).resolves.toContain('open: 0 of 1 approval');
});

test('a member is told plainly where he may not compare, and where he may compare but not promote', async () => {
  await arrangeOk('PUT', `${projectPath()}/members/${encodeURIComponent(cyEmail)}/access`, {
    access: { staging: 'none', production: 'read', development: 'write' },
  });
  const { page } = cy;
  await signIn(page, cyEmail);
  await openTab(page, 'Compare');
  await page.getByText('You have no access to staging: comparing needs read access to both environments.').waitFor();
  await expect(page.getByRole('table').count()).resolves.toBe(0);
  await checkScreen(page, 'compare-no-access');

  await page.getByRole('combobox', { name: 'From' }).selectOption('development');
  const table = page.getByRole('region', { name: 'development compared with production Protected' });
  await table.getByRole('rowheader', { name: 'SAME_KEY' }).waitFor();
  await table.getByText('Your access to production is read: you can compare, not promote into it.').waitFor();
  await expect(page.getByRole('checkbox', { name: /^Promote / }).count()).resolves.toBe(0);
  await expect(page.getByRole('button', { name: 'Promote' }).count()).resolves.toBe(0);

  // Ada takes his access to development away while his page still lists it: the API's refusal is said.
  await arrangeOk('PUT', `${projectPath()}/members/${encodeURIComponent(cyEmail)}/access`, {
    access: { development: 'none' },
  });
  await page.getByRole('button', { name: 'Swap' }).click();
  await page
    .getByRole('region', { name: 'production compared with development' })
    .getByRole('alert')
    .filter({ hasText: 'Forbidden: Insufficient environment access' })
    .waitFor();
});

test('the pages logged no error', () => {
  expect([...ada.errors, ...cy.errors]).toEqual([]);
});
