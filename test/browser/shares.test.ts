import { randomUUID } from 'node:crypto';
import { sealShare } from '@client/index';
import type { Page, Request } from 'playwright-core';
import { buildCliOnce, runCli } from '../integration/cli';
import { type NpmService, startNpmService } from '../integration/npm-start';
import {
  accessibilityViolations,
  type BrowserPool,
  type BrowserSession,
  launchBrowser,
  screenshotEachWidth,
} from './browser';

/**
 * Shares as people use them: Ada seals a secret into a link on the Share screen, Bob opens it in his
 * own browser (a fresh load, signing in on the way) and reveals it, Cy, whom it is not for, cannot.
 * One Chromium, a context per person: each signs in on their own. Every request any page makes is
 * kept, to show that no key ever leaves the browser. The steps run in order, each on the state the
 * one before left.
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
/** What Ada shares: two lines and a character outside ASCII. */
const VALUE = `postgres://app:s3cr3t-${tag}@db.internal:5432/app\nPGSSLMODE=verify-full é`;
/** The link Ada made, its share's id and its key (the fragment). */
let link = '';
let shareId = '';
let shareKey = '';
/** A whole key of another share: well formed, but it opens nothing of Ada's. */
let otherKey = '';
/** The key of Ada's second link, the one she withdraws. */
let secondKey = '';
/** The key of the link to a value with a direction control and a long line. */
let trickyKey = '';
/** The keys of the links the dashboard and the `secrets` command made for each other. */
const cliKeys: string[] = [];
/** Every request of every person's pages, as sent: URL, headers and body. */
const sent: { who: string; text: string }[] = [];

const SHARE_GONE = 'This share does not exist, was already revealed, expired or is not for you.';

/** Keeps what each request of `session` carries. */
const record = (who: string, session: BrowserSession) =>
  session.context.on('request', (request: Request) =>
    sent.push({ who, text: [request.url(), JSON.stringify(request.headers()), request.postData() ?? ''].join('\n') }),
  );

/** The screen passes axe-core, and looks right at both widths (saved for people to look at). */
const checkScreen = async (page: Page, name: string) => {
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await screenshotEachWidth(page, name)).toEqual([]);
};

/** Signs in from the sign-in screen through the development provider's page. */
const signIn = async (page: Page, email: string) => {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
};

/** A session of `email` for calling the API from the test. */
const sessionOf = async (email: string): Promise<string> => {
  const response = await fetch(`${service.baseUrl}/_dev/idp/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  return ((await response.json()) as { token: string }).token;
};

/** The views left of Ada's share as the API tells Bob, by a look that spends nothing. */
const viewsLeftForBob = async (id = shareId): Promise<number | 'gone'> => {
  const response = await fetch(`${service.baseUrl}/api/v1/shares/${id}`, {
    headers: { Authorization: `Bearer ${await sessionOf(bobEmail)}` },
  });
  if (response.status === 404) return 'gone';
  return ((await response.json()) as { data: { viewsLeft: number } }).data.viewsLeft;
};

/** Every address in the tab's history, back and forward, as the browser keeps it. */
const historyOf = async (session: BrowserSession): Promise<string[]> => {
  const cdp = await session.context.newCDPSession(session.page);
  const { entries } = await cdp.send('Page.getNavigationHistory');
  await cdp.detach();
  return entries.map((entry) => entry.url);
};

const shareRow = (page: Page, id: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: id }) });

beforeAll(async () => {
  service = await startNpmService();
  browser = await launchBrowser();
  ada = await browser.newSession();
  bob = await browser.newSession();
  cy = await browser.newSession();
  record('ada', ada);
  record('bob', bob);
  record('cy', cy);
  otherKey = (await sealShare('another secret')).key;
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

test('the Share screen is in the navigation, its form starting at 24 hours and one view', async () => {
  const { page } = ada;
  await page.goto(`${service.baseUrl}/`);
  await signIn(page, adaEmail);
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.getByRole('navigation').getByRole('link', { name: 'Share' }).click();
  await page.getByRole('heading', { name: 'Share a secret', level: 1 }).waitFor();
  await expect(page.getByLabel('Expires in hours').inputValue()).resolves.toBe('24');
  await expect(page.getByLabel('Views').inputValue()).resolves.toBe('1');
  await expect(page.getByLabel('Recipients').inputValue()).resolves.toBe('');
  await expect(page.getByLabel('Secret to share').evaluate((field) => field.tagName)).resolves.toBe('TEXTAREA');
  await page.getByText('No live shares.').waitFor();
  await checkScreen(page, 'share');
});

test('what the API refuses is said beside its field in its words, a recipient by its line, and nothing is created', async () => {
  const { page } = ada;
  await page.getByRole('button', { name: 'Create link' }).click();
  await page.locator('#share-value-error').filter({ hasText: 'Type the secret to share' }).waitFor();

  await page.getByLabel('Secret to share').fill('x');
  await page.getByLabel('Views').fill('0');
  await page.getByLabel('Recipients').fill(`not-an-e-mail\n\n${bobEmail}`);
  await page.getByRole('button', { name: 'Create link' }).click();
  const viewsError = page.locator('#share-views-error');
  await viewsError.waitFor();
  await expect(viewsError.textContent()).resolves.toBe('A share is revealed at least once');
  await expect(page.getByLabel('Views').getAttribute('aria-invalid')).resolves.toBe('true');
  await expect(page.locator('#share-recipients-error').getByRole('listitem').allTextContents()).resolves.toEqual([
    'Line 1, not-an-e-mail: Not an e-mail address: printable ASCII with one @ between a name and a domain',
  ]);
  await expect(page.getByLabel('Recipients').getAttribute('aria-describedby')).resolves.toContain(
    'share-recipients-error',
  );
  await expect(page.locator('#create-share-error').textContent()).resolves.toBe('Validation failed');
  await expect(page.locator('#share-value-error').count()).resolves.toBe(0);
  await checkScreen(page, 'share-error');
  await page.getByText('No live shares.').waitFor();
});

test('creates a link for Bob: read-only, with Copy, the key in its fragment only', async () => {
  const { page } = ada;
  await page.getByLabel('Secret to share').fill(VALUE);
  await page.getByLabel('Expires in hours').fill('2');
  await page.getByLabel('Views').fill('3');
  await page.getByLabel('Recipients').fill(bobEmail);
  await page.getByRole('button', { name: 'Create link' }).click();
  // The one thing labelled with "link": the field (no region or form is named so).
  const field = page.getByLabel('Link');
  await field.waitFor();
  link = await field.inputValue();
  const parts = new RegExp(`^${service.baseUrl}/s/(shr_[0-9A-Za-z]{22})#([A-Za-z0-9_-]{43})$`).exec(link);
  expect(parts).not.toBeNull();
  [, shareId = '', shareKey = ''] = parts ?? [];
  expect(await field.getAttribute('readonly')).not.toBeNull();
  await page.getByText('It will not be shown again.').waitFor();
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(link);

  const row = shareRow(page, shareId);
  await row.waitFor();
  await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
    expect.any(String),
    expect.any(String),
    '3 of 3',
    bobEmail,
    'Withdraw',
  ]);
  await checkScreen(page, 'share-created');

  // The service got a ciphertext: neither the value nor the key was in what Ada's page sent.
  const created = sent.filter(({ who, text }) => who === 'ada' && text.includes('/api/v1/shares\n'));
  expect(created.length).toBeGreaterThan(0);
  for (const { text } of created) expect(text).not.toContain('s3cr3t');

  await page.reload();
  await shareRow(page, shareId).waitFor();
  await expect(page.getByLabel('Link').count()).resolves.toBe(0);
  expect(await page.content()).not.toContain(shareKey);
});

test('Bob opens the link on a fresh load, signs in, and is back on it with its key, told who shared it', async () => {
  const { page } = bob;
  await page.goto(link);
  await page.getByText('Someone shared a secret with you.').waitFor();
  // The key left the address as the page read it, before the sign-in.
  await expect(page.evaluate('location.hash')).resolves.toBe('');
  await signIn(page, bobEmail);
  await page.getByRole('heading', { name: 'A shared secret', level: 1 }).waitFor();
  expect(page.url()).toBe(`${service.baseUrl}/s/${shareId}`);
  // No entry of the tab's history holds it: not the link as opened, not the return from the sign-in.
  const visited = await historyOf(bob);
  expect(visited).toContain(`${service.baseUrl}/s/${shareId}`);
  expect(visited.filter((url) => url.includes(shareKey))).toEqual([]);
  await page.getByRole('heading', { name: `Shared by ${adaEmail}` }).waitFor();
  await page.getByText('3 views left.').waitFor();
  await expect(page.getByRole('button', { name: 'Reveal' }).count()).resolves.toBe(1);
  // The look spent nothing.
  await expect(viewsLeftForBob()).resolves.toBe(3);
  await checkScreen(page, 'share-link');
});

test('Reveal decrypts the value in the page, with Copy, and says how many views are left', async () => {
  const { page } = bob;
  await page.getByRole('button', { name: 'Reveal' }).click();
  const field = page.getByLabel('Shared secret');
  await field.waitFor();
  await expect(field.inputValue()).resolves.toBe(VALUE);
  expect(await field.getAttribute('readonly')).not.toBeNull();
  await page.getByText('2 views left.').waitFor();
  await expect(page.getByRole('button', { name: 'Reveal' }).count()).resolves.toBe(0);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(VALUE);
  await checkScreen(page, 'share-revealed');
  await expect(page.evaluate('location.hash')).resolves.toBe('');
});

test('going back and forward does not bring the key back into the address', async () => {
  const { page } = bob;
  await page.goto(`${service.baseUrl}/#/share`);
  await page.getByRole('heading', { name: 'Share a secret', level: 1 }).waitFor();
  await page.goto(link);
  await page.getByRole('heading', { name: `Shared by ${adaEmail}` }).waitFor();
  await expect(page.evaluate('location.hash')).resolves.toBe('');
  await page.goBack();
  await page.getByRole('heading', { name: 'Share a secret', level: 1 }).waitFor();
  await page.goForward();
  await page.getByRole('heading', { name: `Shared by ${adaEmail}` }).waitFor();
  expect(page.url()).toBe(`${service.baseUrl}/s/${shareId}`);
  expect((await historyOf(bob)).filter((url) => url.includes(shareKey))).toEqual([]);
  // Nothing was spent on the way.
  await expect(viewsLeftForBob()).resolves.toBe(2);
});

test('a revealed value shows its direction controls written out, wraps at any character and scrolls when long', async () => {
  const tricky = `report\u202Efdp.exe\n${'x9Z_'.repeat(1_000)}`;
  await ada.page.getByLabel('Secret to share').fill(tricky);
  await ada.page.getByLabel('Recipients').fill(bobEmail);
  await ada.page.getByRole('button', { name: 'Create link' }).click();
  const trickyLink = await ada.page.getByLabel('Link').inputValue();
  await ada.page.getByRole('button', { name: 'Done' }).click();
  trickyKey = trickyLink.split('#')[1] ?? '';

  const { page } = bob;
  await page.goto(trickyLink);
  await page.getByRole('button', { name: 'Reveal' }).click();
  const field = page.getByLabel('Shared secret');
  await expect(field.inputValue()).resolves.toBe(`report⟨U+202E⟩fdp.exe\n${'x9Z_'.repeat(1_000)}`);
  await page.getByText('shown here as ⟨U+…⟩ so that nothing shows reversed; Copy copies them as they are.').waitFor();
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(tricky);
  // Wrapped, never wider than its box; as high as a dozen lines, then it scrolls.
  const box = (await page.evaluate(`(() => {
    const field = document.getElementById('shared-secret');
    const lineHeight = parseFloat(getComputedStyle(field).fontSize);
    return { wide: field.scrollWidth > field.clientWidth, lines: field.clientHeight / lineHeight, scrolls: field.scrollHeight > field.clientHeight };
  })()`)) as { wide: boolean; lines: number; scrolls: boolean };
  expect(box).toEqual({ wide: false, lines: expect.any(Number), scrolls: true });
  expect(box.lines).toBeGreaterThan(10);
  await checkScreen(page, 'share-revealed-long');
});

test('a link without its key says so and offers no Reveal: no view is spent', async () => {
  const { page } = bob;
  await page.goto(`${service.baseUrl}/s/${shareId}`);
  await page.getByText('This link has no key: ask for the whole link.').waitFor();
  await page.getByRole('heading', { name: `Shared by ${adaEmail}` }).waitFor();
  await expect(page.getByRole('button', { name: 'Reveal' }).count()).resolves.toBe(0);
  await checkScreen(page, 'share-no-key');

  await page.goto(link.slice(0, -2));
  await page.getByText('This link’s key is cut short or changed: ask for the whole link.').waitFor();
  await expect(page.getByRole('button', { name: 'Reveal' }).count()).resolves.toBe(0);
  await expect(viewsLeftForBob()).resolves.toBe(2);
});

test('a whole key of another share spends a view and says plainly that it does not open this one', async () => {
  const { page } = bob;
  await page.goto(`${service.baseUrl}/s/${shareId}#${otherKey}`);
  await page.getByRole('button', { name: 'Reveal' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: 'The link’s key does not open this share: copy the whole link' })
    .waitFor();
  await page.getByText('1 view left.').waitFor();
  await expect(page.getByLabel('Shared secret').count()).resolves.toBe(0);
  await checkScreen(page, 'share-wrong-key');
});

test('Cy, whom the share is not for, is told it does not exist for him, and spends nothing', async () => {
  const { page } = cy;
  await page.goto(link);
  await signIn(page, cyEmail);
  await page.getByText(SHARE_GONE).waitFor();
  await expect(page.getByRole('button', { name: 'Reveal' }).count()).resolves.toBe(0);
  await expect(page.getByText('Shared by').count()).resolves.toBe(0);
  await checkScreen(page, 'share-gone');
  await expect(viewsLeftForBob()).resolves.toBe(1);
});

test('the last view says it was the last, and after it the link reveals nothing', async () => {
  const { page } = bob;
  await page.goto(link);
  await page.getByText('1 view left.').waitFor();
  await page.getByRole('button', { name: 'Reveal' }).click();
  await expect(page.getByLabel('Shared secret').inputValue()).resolves.toBe(VALUE);
  await page.getByText('This was the last view.').waitFor();
  await page.reload();
  await page.getByText(SHARE_GONE).waitFor();
  await expect(viewsLeftForBob()).resolves.toBe('gone');
});

test('Ada’s list drops the spent share, and Withdraw takes back a share before anyone reveals it', async () => {
  const { page } = ada;
  await page.reload();
  await page.getByText('No live shares.').waitFor();
  await page.getByLabel('Secret to share').fill('for anyone who signs in');
  await page.getByRole('button', { name: 'Create link' }).click();
  const field = page.getByLabel('Link');
  await field.waitFor();
  const second = await field.inputValue();
  const secondId = /\/s\/([^#]+)#/.exec(second)?.[1] ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  const row = shareRow(page, secondId);
  await expect(row.getByRole('cell').nth(3).textContent()).resolves.toBe('Anyone who signs in');
  await expect(viewsLeftForBob(secondId)).resolves.toBe(1);

  await row.getByRole('button', { name: 'Withdraw' }).click();
  await row.waitFor({ state: 'detached' });
  await page
    .getByRole('status')
    .filter({ hasText: `Withdrawn ${secondId}` })
    .waitFor();
  await page.getByText('No live shares.').waitFor();
  await expect(viewsLeftForBob(secondId)).resolves.toBe('gone');

  await bob.page.goto(second);
  await bob.page.getByText(SHARE_GONE).waitFor();
  secondKey = second.split('#')[1] ?? '';
});

/** An API token of `email`'s for the `secrets` command, with both secret scopes. */
const tokenOf = async (email: string): Promise<string> => {
  const response = await fetch(`${service.baseUrl}/api/v1/tokens`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await sessionOf(email)}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'cli', scopes: ['read:secrets', 'write:secrets'] }),
  });
  return ((await response.json()) as { data: { rawToken: string } }).data.rawToken;
};

test('the secrets command reveals a link the dashboard made, and the dashboard one the command made', async () => {
  const cli = await buildCliOnce();
  const secrets = async (args: string[], email: string, input?: string) =>
    runCli(cli, args, { SECRETS_API_URL: service.baseUrl, SECRETS_TOKEN: await tokenOf(email) }, { input });

  const { page } = ada;
  await page.reload();
  const fromDashboard = `dashboard to terminal ${tag}\n\ttabbed ✓`;
  await page.getByLabel('Secret to share').fill(fromDashboard);
  await page.getByLabel('Recipients').fill(bobEmail);
  await page.getByRole('button', { name: 'Create link' }).click();
  const dashboardLink = await page.getByLabel('Link').inputValue();
  await page.getByRole('button', { name: 'Done' }).click();
  const revealed = await secrets(['reveal', dashboardLink], bobEmail);
  expect([revealed.code, revealed.stdout]).toEqual([0, fromDashboard]);

  const fromTerminal = `terminal to dashboard ${tag}\nsecond line é`;
  const shared = await secrets(['share', '--recipient', bobEmail], adaEmail, `${fromTerminal}\n`);
  expect(shared.code).toBe(0);
  const terminalLink = shared.stdout.trim();
  expect(terminalLink).toMatch(new RegExp(`^${service.baseUrl}/s/shr_[0-9A-Za-z]{22}#[A-Za-z0-9_-]{43}$`));
  await bob.page.goto(terminalLink);
  await bob.page.getByRole('heading', { name: `Shared by ${adaEmail}` }).waitFor();
  await bob.page.getByRole('button', { name: 'Reveal' }).click();
  await expect(bob.page.getByLabel('Shared secret').inputValue()).resolves.toBe(fromTerminal);
  await bob.page.getByText('This was the last view.').waitFor();
  cliKeys.push(dashboardLink.split('#')[1] ?? '', terminalLink.split('#')[1] ?? '');
});

test('no request of any page carried a key, and no page logged an error', () => {
  const keys = [shareKey, otherKey, secondKey, trickyKey, ...cliKeys];
  for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // Opening the link was a request of its own, for the page, and the key was not in it.
  expect(sent.some(({ who, text }) => who === 'bob' && text.startsWith(`${service.baseUrl}/s/${shareId}\n`))).toBe(
    true,
  );
  const carrying = sent.filter(({ text }) => keys.some((key) => text.includes(key)));
  expect(carrying).toEqual([]);
  expect([...ada.errors, ...bob.errors, ...cy.errors]).toEqual([]);
  const hosts = new Set(
    [...ada.requests, ...bob.requests, ...cy.requests]
      .filter((url) => !url.startsWith('data:'))
      .map((url) => new URL(url).host),
  );
  expect([...hosts]).toEqual([new URL(service.baseUrl).host]);
});
