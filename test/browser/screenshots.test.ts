import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { arrange, devSession } from '../integration/harness';
import { type NpmService, startNpmService } from '../integration/npm-start';
import { accessibilityViolations, type BrowserSession, openBrowser, SCREENSHOT_DIR } from './browser';

/**
 * The README's pictures of a project's home (docs/dashboard-*.png), taken from fixed data at a fixed
 * size, so that they change only when the dashboard does. With `UPDATE_SCREENSHOTS=1` the test writes
 * them; otherwise it fails when a committed picture is no longer what the dashboard shows, and says how
 * to refresh it. What differs from run to run (times, the project's id) is replaced by fixed text
 * before each picture; the pictures are compared in Chromium itself (a canvas), so no image library is
 * needed.
 */

const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const DOCS = resolve(__dirname, '../../docs');
const VIEWPORT = { width: 1280, height: 800 } as const;
/** A pixel differs when its red, green and blue differ by more than this in all (anti-aliasing does not). */
const PIXEL_TOLERANCE = 48;
/** The share of a picture's pixels that may differ: a caret or a font's hinting, never a changed screen. */
const MOST_DIFFERING = 0.005;
const EMAIL = 'ada@example.com';
/** A plain member, who proposes changes in the protected environment. */
const MEMBER = 'bob@example.com';
/** What the pictures show for every time and for the project's id. */
const SHOWN_TIME = 'Nov 23, 2026, 12:00 PM';
const SHOWN_PROJECT_ID = 'prj_3f9c2a7e41b84d6c';

let service: NpmService;
let browser: BrowserSession;
let page: Page;
let projectId = '';
let bearer = '';

/** Arranges the fixed data through the API, a 503 sent again as a client would (the harness's `arrange`). */
const arrangeOk = async (method: string, path: string, token: string, json: unknown) => {
  const reply = await arrange(service, method, path, { token, json });
  if (reply.status >= 300) throw new Error(`${method} ${path} answered ${reply.status} ${reply.text}`);
  return reply.body as { data: { projectId: string; id: string } };
};

/**
 * The share of pixels by which two PNG pictures differ, or 1 when their sizes differ; worked out by
 * Chromium on a blank page of its own (browser code as text: the tests are compiled without the DOM's
 * types).
 */
const differingShare = async (fresh: Buffer, committed: Buffer): Promise<number> => {
  const checker = await browser.context.newPage();
  try {
    return (await checker.evaluate(`(async () => {
      const load = async (base64) => {
        const image = new Image();
        image.src = 'data:image/png;base64,' + base64;
        await image.decode();
        return image;
      };
      const pixels = (image) => {
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height).data;
      };
      const [a, b] = await Promise.all([load(${JSON.stringify(fresh.toString('base64'))}), load(${JSON.stringify(committed.toString('base64'))})]);
      if (a.width !== b.width || a.height !== b.height) return 1;
      const first = pixels(a);
      const second = pixels(b);
      let differing = 0;
      for (let index = 0; index < first.length; index += 4) {
        const distance =
          Math.abs(first[index] - second[index]) +
          Math.abs(first[index + 1] - second[index + 1]) +
          Math.abs(first[index + 2] - second[index + 2]);
        if (distance > ${PIXEL_TOLERANCE}) differing += 1;
      }
      return differing / (first.length / 4);
    })()`)) as number;
  } finally {
    await checker.close();
  }
};

/**
 * Takes the picture `docs/<name>.png` of what the page shows, after the same fixed text for what
 * changes between runs, with no focus ring or hover; writes it with `UPDATE_SCREENSHOTS=1`, else
 * checks the committed one is still what the page shows.
 */
const docsScreenshot = async (name: string) => {
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.mouse.move(0, 0);
  await page.evaluate(`(() => {
    document.activeElement?.blur();
    for (const time of document.querySelectorAll('time')) time.textContent = ${JSON.stringify(SHOWN_TIME)};
    const id = document.getElementById('project-id');
    if (id) id.value = ${JSON.stringify(SHOWN_PROJECT_ID)};
  })()`);
  const fresh = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
  const committed = join(DOCS, `${name}.png`);
  if (UPDATE) {
    writeFileSync(committed, fresh);
    return;
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const taken = join(SCREENSHOT_DIR, `docs-${name}.png`);
  writeFileSync(taken, fresh);
  const refresh =
    `Look at ${taken}; if it is right, run UPDATE_SCREENSHOTS=1 npx jest --selectProjects browser ` +
    `--testPathPatterns browser/screenshots and commit docs/${name}.png.`;
  if (!existsSync(committed)) throw new Error(`docs/${name}.png is missing. ${refresh}`);
  const share = await differingShare(fresh, readFileSync(committed));
  if (share > MOST_DIFFERING) {
    throw new Error(
      `docs/${name}.png is not what the dashboard shows now (${share === 1 ? 'another size' : `${(share * 100).toFixed(1)} % of its pixels differ`}). ${refresh}`,
    );
  }
};

beforeAll(async () => {
  service = await startNpmService();
  browser = await openBrowser();
  page = browser.page;
  await page.setViewportSize(VIEWPORT);
  await page.goto(`${service.baseUrl}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();

  bearer = await devSession(service, EMAIL);
  projectId = (await arrangeOk('POST', '/api/v1/projects', bearer, { name: 'payments' })).data.projectId;
  const secrets = `/api/v1/projects/${projectId}/environments/development/secrets`;
  // One request per secret: the events of one request share its time, and those of a time are in the
  // order of their random ids, which would change the activity's picture from run to run.
  for (const [name, value] of Object.entries({
    DATABASE_URL: 'postgres://demo:not-a-real-password@db.example.test/app',
    API_URL: 'https://api.example.test',
    LOG_LEVEL: 'debug',
    OLD_API_KEY: 'demo-key-0000',
    STRIPE_KEY: 'sk_test_not_a_real_key',
  })) {
    await arrangeOk('PUT', `${secrets}/${name}`, bearer, { value });
  }
  await arrangeOk('PATCH', secrets, bearer, { delete: ['OLD_API_KEY'] });
  await arrangeOk('PATCH', `/api/v1/projects/${projectId}/environments/staging/secrets`, bearer, {
    set: { DATABASE_URL: 'postgres://demo:staging@db.example.test/app' },
  });
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

test('docs/dashboard-secrets.png: a project’s home on its Secrets tab, one value revealed', async () => {
  await page.goto(`${service.baseUrl}/#/projects/${projectId}`);
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'DATABASE_URL' }) });
  await row.getByRole('button', { name: 'Reveal' }).click();
  await row.getByText('postgres://demo:not-a-real-password@db.example.test/app').waitFor();
  // The project's name and the role under it come with a read of their own.
  await page.getByRole('heading', { name: 'payments', level: 1 }).waitFor();
  await docsScreenshot('dashboard-secrets');
});

test('docs/dashboard-secrets-deleted.png: the secrets deleted in the last 30 days, with History and Restore', async () => {
  await page.getByRole('radio', { name: 'Deleted' }).check();
  await page.getByRole('rowheader', { name: 'OLD_API_KEY' }).waitFor();
  await docsScreenshot('dashboard-secrets-deleted');
});

test('docs/dashboard-project-settings.png: the project’s name, its id with Copy, and its environments', async () => {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('rowheader', { name: 'staging' }).waitFor();
  await docsScreenshot('dashboard-project-settings');
});

test('docs/dashboard-project-activity.png: the project’s activity in words', async () => {
  await page.getByRole('tab', { name: 'Activity' }).click();
  await page.getByRole('cell', { name: 'Deleted OLD_API_KEY (version 2) in development', exact: true }).waitFor();
  await page.getByRole('cell', { name: 'Read DATABASE_URL (version 1) in development', exact: true }).waitFor();
  await docsScreenshot('dashboard-project-activity');
});

// After the activity's picture, so that it shows the secrets' events only.
test('docs/dashboard-members.png: the project’s members, owner first, with their access to each environment', async () => {
  const member = await devSession(service, MEMBER);
  await arrangeOk('GET', '/api/v1/tokens', member, undefined);
  await arrangeOk('POST', `/api/v1/projects/${projectId}/members`, bearer, { email: MEMBER, role: 'member' });
  await arrangeOk('PUT', `/api/v1/projects/${projectId}/members/${MEMBER}/access`, bearer, {
    access: { staging: 'read' },
  });
  await page.reload();
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByRole('combobox', { name: `Access of ${MEMBER} to staging` }).waitFor();
  await docsScreenshot('dashboard-members');
});

test('docs/dashboard-changes.png: the change requests of a protected environment, open first', async () => {
  const member = await devSession(service, MEMBER);
  const production = `/api/v1/projects/${projectId}/environments/production`;
  await arrangeOk('PATCH', production, bearer, { protected: true });
  const rejected = await arrangeOk('POST', `${production}/change-requests`, member, {
    set: { API_URL: 'https://api.example.test' },
  });
  await arrangeOk('POST', `${production}/change-requests/${rejected.data.id}/reject`, bearer, undefined);
  await arrangeOk('POST', `${production}/change-requests`, member, {
    set: { DATABASE_URL: 'postgres://demo:production-example@db.example.test/app' },
    note: 'The production database, for the first deploy',
  });
  await page.reload();
  await page.getByRole('tab', { name: 'Changes' }).click();
  await page.getByRole('radio', { name: /^production, / }).check();
  await page.getByRole('button', { name: 'Approve' }).waitFor();
  await docsScreenshot('dashboard-changes');
});

test('docs/dashboard-service-accounts.png: the project’s service accounts with their access per environment', async () => {
  const serviceAccounts = `/api/v1/projects/${projectId}/service-accounts`;
  await arrangeOk('POST', serviceAccounts, bearer, {
    name: 'ci-deploy',
    description: 'Deploys from GitHub Actions',
    access: { staging: 'read', production: 'write' },
  });
  await arrangeOk('POST', serviceAccounts, bearer, {
    name: 'nightly-backup',
    description: 'Copies production’s settings for the backup job',
    access: { production: 'read' },
  });
  await page.reload();
  await page.getByRole('tab', { name: 'Service accounts' }).click();
  await page.getByRole('rowheader', { name: 'nightly-backup' }).waitFor();
  // The environments' columns and the owner's form come with reads of their own, which may answer after the list's.
  await page.getByRole('columnheader', { name: 'staging' }).waitFor();
  await page.getByRole('form', { name: 'Create a service account' }).waitFor();
  await docsScreenshot('dashboard-service-accounts');
});

test('the page logged no error', () => {
  expect(browser.errors).toEqual([]);
});
