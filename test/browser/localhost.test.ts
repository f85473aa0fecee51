import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { type NpmService, startNpmService } from '../integration/npm-start';
import { accessibilityViolations, type BrowserSession, openBrowser } from './browser';

/**
 * The dashboard opened at `http://localhost:<port>/`, as a person types it. The browser may reach the
 * service over `::1` while curl on the same machine reaches it over `127.0.0.1`: a token bound to the
 * one address the API saw would refuse the other, so the form offers this machine's loopback instead.
 */

let service: NpmService;
let browser: BrowserSession;
let page: Page;

beforeAll(async () => {
  service = await startNpmService();
  browser = await openBrowser();
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const useFrom = async (host: string, rawToken: string): Promise<number> =>
  (await fetch(`http://${host}:${service.port}/api/v1/projects`, { headers: { Authorization: `Bearer ${rawToken}` } }))
    .status;

test('offers “this machine”, both loopbacks, and the token it makes works from 127.0.0.1 and ::1', async () => {
  await page.goto(`http://localhost:${service.port}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(`lin-${randomUUID().slice(0, 8)}@example.com`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();

  const thisMachine = page.getByLabel('This machine (127.0.0.1 and ::1)');
  await thisMachine.waitFor();
  await expect(thisMachine.isChecked()).resolves.toBe(true);
  expect(await accessibilityViolations(page)).toEqual([]);

  await page.getByLabel('Name').fill('local-script');
  await page.getByLabel('admin').check();
  await page.getByRole('button', { name: 'Create token' }).click();
  const field = page.getByLabel('New token');
  await field.waitFor();
  const rawToken = await field.inputValue();
  expect(await useFrom('127.0.0.1', rawToken)).toBe(200);
  expect(await useFrom('[::1]', rawToken)).toBe(200);

  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'local-script' }) });
  await expect(row.getByRole('cell').nth(5).textContent()).resolves.toBe('127.0.0.1, ::1');
  expect(browser.errors).toEqual([]);
});
