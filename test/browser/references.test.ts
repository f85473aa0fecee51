import { randomUUID } from 'node:crypto';
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
 * References in the dashboard: Ada reveals a value that refers to a secret of another environment and
 * one of another project; Reveal shows it resolved, and each reference is a link, to the Secrets of its
 * environment filtered by its name, or to the other project.
 */

let service: NpmService;
let browser: BrowserPool;
let ada: BrowserSession;
const tag = randomUUID().slice(0, 8);
const adaEmail = `ada-${tag}@example.com`;
let adaBearer = '';
let projectId = '';
let otherId = '';

const arrangeOk = async (method: string, path: string, json?: unknown): Promise<Reply> => {
  const reply = await arrange(service, method, path, { token: adaBearer, json });
  if (reply.status >= 300) throw new Error(`${method} ${path} answered ${reply.status} ${reply.text}`);
  return reply;
};

const putSecret = (project: string, environment: string, name: string, value: string) =>
  arrangeOk('PUT', `/api/v1/projects/${project}/environments/${environment}/secrets/${name}`, { value });

const rowOf = (name: string) =>
  ada.page.getByRole('row').filter({ has: ada.page.getByRole('rowheader', { name, exact: true }) });

beforeAll(async () => {
  service = await startNpmService();
  browser = await launchBrowser();
  ada = await browser.newSession();
  adaBearer = await devSession(service, adaEmail);
  await arrangeOk('GET', '/api/v1/tokens');
  projectId = (await arrangeOk('POST', '/api/v1/projects', { name: 'payments' })).body.data.projectId;
  otherId = (await arrangeOk('POST', '/api/v1/projects', { name: 'shared' })).body.data.projectId;
  await putSecret(otherId, 'production', 'PASSWORD', `pw-${tag}`);
  await putSecret(projectId, 'staging', 'DB_HOST', 'db.internal');
  await putSecret(projectId, 'staging', 'OTHER', 'not-the-one');
  await putSecret(
    projectId,
    'development',
    'DATABASE_URL',
    `postgres://app:\${${otherId}.production.PASSWORD}@\${staging.DB_HOST}`,
  );
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

test('Reveal shows a value resolved, with each reference a link to the secret it names', async () => {
  const { page } = ada;
  await page.goto(`${service.baseUrl}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(adaEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.goto(`${service.baseUrl}/#/projects/${projectId}`);
  const row = rowOf('DATABASE_URL');
  await row.getByRole('button', { name: 'Reveal' }).click();

  await row.getByText(`postgres://app:pw-${tag}@db.internal`).waitFor();
  const links = row.getByRole('link');
  await expect(links.allTextContents()).resolves.toEqual([`\${${otherId}.production.PASSWORD}`, '${staging.DB_HOST}']);
  await expect(links.nth(1).getAttribute('href')).resolves.toBe(`#/projects/${projectId}/secrets/staging/DB_HOST`);
  await expect(links.nth(0).getAttribute('href')).resolves.toBe(`#/projects/${otherId}`);
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await screenshotEachWidth(page, 'references-revealed')).toEqual([]);

  await links.nth(1).click();
  // The link stays on the Secrets tab, so nothing else marks the moment the choice changes.
  await page.getByRole('radio', { name: /^staging, /, checked: true }).waitFor();
  await expect(page.getByLabel('Filter by name').inputValue()).resolves.toBe('DB_HOST');
  await rowOf('DB_HOST').waitFor();
  await expect(rowOf('OTHER').count()).resolves.toBe(0);
  expect(await accessibilityViolations(page)).toEqual([]);
});
