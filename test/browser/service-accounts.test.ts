import { randomUUID } from 'node:crypto';
import { GITHUB_ACTIONS_ISSUER } from '@contract/trust-rules';
import type { Page } from 'playwright-core';
import { arrange, call, devSession, type Reply } from '../integration/harness';
import { type NpmService, startNpmService } from '../integration/npm-start';
import {
  accessibilityViolations,
  type BrowserPool,
  type BrowserSession,
  launchBrowser,
  screenshotEachWidth,
} from './browser';

/**
 * A project's Service accounts tab as people use it: Ada, the owner, makes a service account with a
 * level per environment, gives it a token that she sees once and that then reads a secret of an
 * environment in its access (and none outside it), rotates it and revokes it; Cy, a plain member, reads
 * the list and nothing more. One Chromium, a context per person; the steps run in order, each on the
 * state the one before left.
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
/** The service account Ada makes, as its page's address names it. */
let serviceAccountId = '';
/** The token Ada created, then its rotation's replacement, as the page showed each once. */
let firstToken = '';
let rotatedToken = '';
const STAGING_URL = `https://staging-${tag}.example.test`;

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
const serviceAccountPath = () => `${projectPath()}/service-accounts/${serviceAccountId}`;

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

/** Opens the project's Service accounts tab by its address, and waits until its panel is there. */
const openTab = async (page: Page) => {
  await page.goto(`${service.baseUrl}/#/projects/${projectId}/service-accounts`);
  await page.getByRole('tabpanel', { name: 'Service accounts' }).waitFor();
};

const rowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

/** A secret of an environment read with `token`, as a pipeline would. */
const readWith = (token: string, environment: string, name: string) =>
  call(service, 'GET', `${projectPath()}/environments/${environment}/secrets/${name}`, { token });

beforeAll(async () => {
  service = await startNpmService();
  browser = await launchBrowser();
  ada = await browser.newSession();
  cy = await browser.newSession();
  adaBearer = await signedInOnce(adaEmail);
  await signedInOnce(cyEmail);
  projectId = (await arrangeOk('POST', '/api/v1/projects', { name: 'payments' })).body.data.projectId;
  await arrangeOk('POST', `${projectPath()}/members`, { email: cyEmail, role: 'member' });
  await arrangeOk('PUT', `${projectPath()}/environments/staging/secrets/API_URL`, { value: STAGING_URL });
  await arrangeOk('PUT', `${projectPath()}/environments/development/secrets/API_URL`, { value: 'dev' });
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

test('the owner creates a service account with a level per environment; the API’s refusal stands beside its field', async () => {
  const { page } = ada;
  await signIn(page, adaEmail);
  await openTab(page);
  await page.getByText('This project has no service account yet.').waitFor();
  const form = page.getByRole('form', { name: 'Create a service account' });
  // Only spaces pass the browser's `required`, not the API.
  await form.getByLabel('Name', { exact: true }).fill('   ');
  await form.getByRole('button', { name: 'Create service account' }).click();
  const nameError = form.getByRole('alert').filter({ hasText: 'Give a name: it is empty or only spaces' });
  await nameError.waitFor();
  await expect(form.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
  await expect(form.getByLabel('Name', { exact: true }).getAttribute('aria-describedby')).resolves.toContain(
    await nameError.getAttribute('id'),
  );
  await checkScreen(page, 'service-account-name-error');

  await form.getByLabel('Name', { exact: true }).fill('ci-deploy');
  await form.getByLabel('Description (optional)').fill('Deploys from CI');
  await expect(form.getByLabel('Access to staging').inputValue()).resolves.toBe('none');
  await form.getByLabel('Access to staging').selectOption('read');
  await form.getByLabel('Access to production').selectOption('write');
  await form.getByRole('button', { name: 'Create service account' }).click();
  await status(page, 'Created the service account “ci-deploy”: production: write, staging: read.').waitFor();
  const list = page.getByRole('region', { name: 'Service accounts' });
  const row = rowOf(page, 'ci-deploy');
  // The status comes with the answer; the list is read again after it.
  await row.waitFor();
  await expect(list.getByRole('columnheader').allTextContents()).resolves.toEqual([
    'Name',
    'Description',
    'development',
    'production',
    'staging',
    'Created',
    'Actions',
  ]);
  await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
    'Deploys from CI',
    'none',
    'write',
    'read',
    expect.any(String),
    'EditDelete',
  ]);
  const listed = (await arrangeOk('GET', `${projectPath()}/service-accounts`)).body.data as {
    name: string;
    description: string;
    access: Record<string, string>;
  }[];
  expect(listed).toEqual([
    expect.objectContaining({
      name: 'ci-deploy',
      description: 'Deploys from CI',
      access: { production: 'write', staging: 'read' },
    }),
  ]);
  // The form is empty again, for the next one.
  await expect(form.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('');
  await checkScreen(page, 'service-accounts');
});

test('its token is shown once with Copy, and reads the secrets of its access only', async () => {
  const { page } = ada;
  await rowOf(page, 'ci-deploy').getByRole('link', { name: 'ci-deploy' }).click();
  await page.getByRole('heading', { name: 'Service account “ci-deploy”' }).waitFor();
  const address = new URL(page.url()).hash;
  expect(address).toMatch(/^#\/projects\/prj_[^/]+\/service-accounts\/sa_[0-9A-Za-z]{16}$/);
  serviceAccountId = address.split('/').at(-1) ?? '';
  const tokens = page.getByRole('region', { name: 'Tokens of “ci-deploy”' });
  await tokens.getByText('No tokens yet.').waitFor();
  const form = page.getByRole('form', { name: 'Create a token of “ci-deploy”' });
  await form.getByLabel('Token name').fill('github-actions');
  await form.getByLabel('Expires in days').fill('30');
  await form.getByRole('button', { name: 'Create token' }).click();

  await page.getByRole('heading', { name: 'Token “github-actions” created' }).waitFor();
  await page.getByText('Copy it now. It will not be shown again.').waitFor();
  firstToken = await page.getByLabel('New token').inputValue();
  expect(firstToken).toMatch(/^svc_live_/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await status(page, 'Copied to the clipboard.').waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(firstToken);
  await rowOf(page, 'github-actions').waitFor();
  await checkScreen(page, 'service-account-token-created');

  // What a pipeline does with it: staging is in its access, development is not.
  const staging = await readWith(firstToken, 'staging', 'API_URL');
  expect(staging.status).toBe(200);
  expect(staging.body.data).toMatchObject({ name: 'API_URL', value: STAGING_URL });
  expect((await readWith(firstToken, 'development', 'API_URL')).status).toBe(403);

  await page.getByRole('button', { name: 'Done' }).click();
  await form.waitFor();
  await expect(page.getByLabel('New token').count()).resolves.toBe(0);
  await page.reload();
  await rowOf(page, 'github-actions').waitFor();
  await expect(page.content()).resolves.not.toContain(firstToken);
  const [prefix, , , lastUsed, worksFrom] = await rowOf(page, 'github-actions').getByRole('cell').allTextContents();
  expect(prefix).toMatch(/^svc_live_\S+…$/);
  expect(firstToken.startsWith(prefix?.slice(0, -1) ?? '-')).toBe(true);
  expect(lastUsed).toMatch(/ from 127\.0\.0\.1$/);
  expect(worksFrom).toBe('127.0.0.1, ::1');
});

test('Rotate shows the replacement once; the old token works on for its grace period', async () => {
  const { page } = ada;
  await rowOf(page, 'github-actions').getByRole('button', { name: 'Rotate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate “github-actions”?' });
  await dialog.getByText('A new token with the same name and addresses replaces “github-actions”.').waitFor();
  await dialog.getByLabel('Grace period').selectOption({ label: '1 hour' });
  await checkScreen(page, 'service-account-token-rotate');
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: 'Token “github-actions” rotated' }).waitFor();
  rotatedToken = await page.getByLabel('New token').inputValue();
  expect(rotatedToken).toMatch(/^svc_live_/);
  expect(rotatedToken).not.toBe(firstToken);
  await page.getByText(/^It replaces svc_live_\S+…, which keeps working until /).waitFor();
  expect((await readWith(rotatedToken, 'staging', 'API_URL')).status).toBe(200);
  expect((await readWith(firstToken, 'staging', 'API_URL')).status).toBe(200);

  const old = page.getByRole('row').filter({ hasText: 'Replaced' });
  await old.waitFor();
  await expect(old.getByRole('button', { name: 'Rotate' }).count()).resolves.toBe(0);
  await expect(old.getByRole('cell').nth(2).textContent()).resolves.toMatch(/^Stops working /);
});

test('Revoke asks first, then the token stops at once', async () => {
  const { page } = ada;
  await page.getByRole('button', { name: 'Done' }).click();
  const live = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Rotate' }) });
  await live.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “github-actions”?' });
  await dialog.getByText('Whatever uses this token stops working at once. This cannot be undone.').waitFor();
  await checkScreen(page, 'service-account-token-revoke');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await dialog.waitFor({ state: 'detached' });
  // The list read again: the revoked token is gone, and the replaced one has no Rotate.
  await page.getByRole('button', { name: 'Rotate' }).waitFor({ state: 'detached' });
  await expect(page.getByRole('row').filter({ hasText: 'Replaced' }).count()).resolves.toBe(1);
  expect((await readWith(rotatedToken, 'staging', 'API_URL')).status).toBe(401);
});

test('Edit changes the access at once; the token of the old access reads no more than the new one', async () => {
  const { page } = ada;
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit “ci-deploy”' });
  await expect(dialog.getByLabel('Access to staging').inputValue()).resolves.toBe('read');
  await dialog.getByLabel('Access to staging').selectOption('none');
  await dialog.getByLabel('Access to development').selectOption('read');
  await dialog.getByLabel('Description (optional)').fill('');
  await checkScreen(page, 'service-account-edit');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await status(page, 'Saved “ci-deploy”: development: read, production: write.').waitFor();
  await page.getByText('development: read, production: write', { exact: true }).waitFor();
  const listed = (await arrangeOk('GET', `${projectPath()}/service-accounts`)).body.data as {
    description: string | null;
    access: Record<string, string>;
  }[];
  expect(listed[0]).toMatchObject({ description: null, access: { development: 'read', production: 'write' } });
  // The first token still works (its grace period), now by the new access.
  expect((await readWith(firstToken, 'staging', 'API_URL')).status).toBe(403);
  expect((await readWith(firstToken, 'development', 'API_URL')).status).toBe(200);
});

test('trust rules: a GitHub Actions rule and an AWS role rule are added beside the API’s refusal, listed, and deleted', async () => {
  const { page } = ada;
  await page.getByRole('heading', { name: 'Service account “ci-deploy”' }).waitFor();
  const rules = page.getByRole('region', { name: 'Trust rules of “ci-deploy”' });
  await rules.getByText('No trust rules yet: only its tokens act as it.').waitFor();

  const github = page.getByRole('form', { name: 'GitHub Actions' });
  await expect(github.getByLabel('Audience').inputValue()).resolves.toBe('secrets-service');
  await github.getByLabel('Owner').fill('acme');
  await github.getByLabel('Repository').fill('app');
  await github.getByText('Subject: repo:acme/app:ref:refs/heads/main').waitFor();
  await github.getByLabel('In a deployment environment').check();
  await github.getByLabel('Environment', { exact: true }).fill('production');
  await github.getByText('Subject: repo:acme/app:environment:production').waitFor();
  await github.getByRole('button', { name: 'Add GitHub Actions rule' }).click();
  await status(page, 'Added the rule for repo:acme/app:environment:production.').waitFor();
  const githubRow = rules.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'GitHub Actions' }) });
  await githubRow.waitFor();
  await expect(githubRow.getByRole('cell').first().textContent()).resolves.toBe(
    `repo:acme/app:environment:production at ${GITHUB_ACTIONS_ISSUER}`,
  );

  const aws = page.getByRole('form', { name: 'AWS role' });
  await aws.getByLabel('Role ARNs').fill('arn:aws:iam::123456789012:role/deploy\narn:aws:iam::12345:role/typo');
  await aws.getByRole('button', { name: 'Add AWS role rule' }).click();
  const lineError = aws
    .getByRole('alert')
    .filter({ hasText: 'Line 2, arn:aws:iam::12345:role/typo: Use an IAM role or user ARN' });
  await lineError.waitFor();
  await expect(aws.getByLabel('Role ARNs').getAttribute('aria-invalid')).resolves.toBe('true');
  await checkScreen(page, 'service-account-trust-rules-error');
  await aws
    .getByLabel('Role ARNs')
    .fill('arn:aws:iam::123456789012:role/deploy\narn:aws:iam::123456789012:role/ci/release');
  await aws.getByRole('button', { name: 'Add AWS role rule' }).click();
  await status(page, 'Added the AWS rule.').waitFor();
  await rules.getByRole('rowheader', { name: 'AWS IAM' }).waitFor();

  const listed = (await arrangeOk('GET', `${serviceAccountPath()}/trust-rules`)).body.data as Record<string, unknown>[];
  expect(listed).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        kind: 'oidc',
        issuer: GITHUB_ACTIONS_ISSUER,
        audience: 'secrets-service',
        subject: 'repo:acme/app:environment:production',
      }),
      expect.objectContaining({
        kind: 'aws',
        principals: ['arn:aws:iam::123456789012:role/deploy', 'arn:aws:iam::123456789012:role/ci/release'],
      }),
    ]),
  );
  expect(listed).toHaveLength(2);
  await checkScreen(page, 'service-account-trust-rules');

  await githubRow.getByRole('button', { name: 'Delete rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the GitHub Actions rule?' });
  await dialog.getByRole('button', { name: 'Delete rule' }).click();
  await dialog.waitFor({ state: 'detached' });
  await status(page, 'Deleted the GitHub Actions rule.').waitFor();
  await githubRow.waitFor({ state: 'detached' });
  const left = (await arrangeOk('GET', `${serviceAccountPath()}/trust-rules`)).body.data as { kind: string }[];
  expect(left.map((rule) => rule.kind)).toEqual(['aws']);
});

test('a plain member sees the list and a service account’s access, without a control or its tokens', async () => {
  const { page } = cy;
  await signIn(page, cyEmail);
  await openTab(page);
  const row = rowOf(page, 'ci-deploy');
  await row.waitFor();
  // The environments' columns come with a read of their own, which may answer after the list's.
  await page.getByRole('region', { name: 'Service accounts' }).getByRole('columnheader', { name: 'staging' }).waitFor();
  await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
    '',
    'read',
    'write',
    'none',
    expect.any(String),
  ]);
  for (const name of ['Create service account', 'Edit', 'Delete']) {
    await expect(page.getByRole('button', { name }).count()).resolves.toBe(0);
  }
  await expect(page.getByRole('form').count()).resolves.toBe(0);
  await checkScreen(page, 'service-accounts-member');
  await row.getByRole('link', { name: 'ci-deploy' }).click();
  await page.getByRole('heading', { name: 'Service account “ci-deploy”' }).waitFor();
  await page.getByText('Only the project’s owner and admins see and make its tokens and trust rules.').waitFor();
  await expect(
    page
      .getByRole('button')
      .filter({ hasText: /^(Edit|Delete|Create token)$/ })
      .count(),
  ).resolves.toBe(0);
});

test('the Activity tab says what happened to the service account and its tokens, by their names', async () => {
  const { page } = ada;
  await page.goto(`${service.baseUrl}/#/projects/${projectId}/activity`);
  await page.getByRole('tabpanel', { name: 'Activity' }).waitFor();
  for (const sentence of [
    'Created service account “ci-deploy”: production: write, staging: read',
    /^Created token “github-actions” of service account “ci-deploy”; it expires /,
    /^Rotated token “github-actions” of service account “ci-deploy”; the old one stops /,
    'Revoked token “github-actions” of service account “ci-deploy”',
    'Changed service account “ci-deploy”: development: read, production: write',
    `Trusted the subject repo:acme/app:environment:production of ${GITHUB_ACTIONS_ISSUER} to sign in as service account “ci-deploy”`,
    'Trusted the AWS principals arn:aws:iam::123456789012:role/deploy and arn:aws:iam::123456789012:role/ci/release to sign in as service account “ci-deploy”',
    `Stopped trusting the subject repo:acme/app:environment:production of ${GITHUB_ACTIONS_ISSUER} to sign in as service account “ci-deploy”`,
  ]) {
    await page
      .getByRole('cell', { name: sentence, exact: typeof sentence === 'string' })
      .first()
      .waitFor();
  }
  await expect(
    page.getByRole('cell', { name: 'service account “ci-deploy” with token “github-actions”', exact: true }).count(),
  ).resolves.toBeGreaterThan(0);
});

test('Delete asks first; every token of the service account stops with it', async () => {
  const { page } = ada;
  await openTab(page);
  await rowOf(page, 'ci-deploy').getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the service account “ci-deploy”?' });
  await dialog.getByText('Every token of it stops working at once. This cannot be undone.').waitFor();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await dialog.waitFor({ state: 'detached' });
  await status(page, 'Deleted the service account “ci-deploy”.').waitFor();
  await page.getByText('This project has no service account yet.').waitFor();
  expect((await readWith(firstToken, 'development', 'API_URL')).status).toBe(401);
});

test('the pages logged no error', () => {
  expect([...ada.errors, ...cy.errors]).toEqual([]);
});
