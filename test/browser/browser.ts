import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import axe from 'axe-core';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core: the tests never download a browser. `.ci/run`
 * installs the `chromium` package when it is missing; `CHROMIUM_PATH` points elsewhere.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the networking flags Chromium keeps trying to reach the internet; the tests talk to loopback only. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where a run's screenshots go: not committed (see .gitignore); README's come from `docs/`. */
export const SCREENSHOT_DIR = resolve(__dirname, '../../test-results/dashboard');

/** A fresh browser profile with one page, and what the page said and asked for along the way. */
export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions, in order. */
  readonly errors: string[];
  /** Every URL the page requested. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Records what `page` said, and what every page of `context` asked for, as {@link BrowserSession} keeps them. */
const watch = (context: BrowserContext, page: Page): Pick<BrowserSession, 'errors' | 'requests'> => {
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    // Chromium logs every 4xx answer as an error; the API's 4xx answers are the dashboard's to show in words.
    const answered = message.text().startsWith('Failed to load resource: the server responded with a status of 4');
    if (message.type() === 'error' && !answered) errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  context.on('request', (request) => requests.push(request.url()));
  return { errors, requests };
};

const requireChromium = (): void => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
};

export const openBrowser = async (): Promise<BrowserSession> => {
  requireChromium();
  const profile = mkdtempSync(join(tmpdir(), 'dashboard-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 800 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    ...watch(context, page),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
};

/** One Chromium for several people at once: each session a context of its own (cookies, storage, clipboard). */
export interface BrowserPool {
  /** A fresh context with one page, as a person who has never opened the dashboard. */
  newSession(): Promise<BrowserSession>;
  /** Closes every session and the browser. */
  close(): Promise<void>;
}

/** Starts one Chromium whose sessions share nothing: lighter on a two-core machine than a browser each. */
export const launchBrowser = async (): Promise<BrowserPool> => {
  requireChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return {
    newSession: async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await context.newPage();
      return { context, page, ...watch(context, page), close: () => context.close() };
    },
    close: () => browser.close(),
  };
};

/** One accessibility violation as a line a reader can act on. */
const describeViolation = (violation: axe.Result): string =>
  `${violation.impact}: ${violation.id} (${violation.help}) at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`;

/**
 * axe-core's check of what the page shows now; answers the serious and critical violations. The
 * script is evaluated through the browser's debugging protocol, which the page's CSP does not govern.
 */
export const accessibilityViolations = async (page: Page): Promise<string[]> => {
  await page.evaluate(axe.source);
  // Browser code as text: the tests are compiled without the DOM's types.
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as axe.AxeResults;
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(describeViolation);
};

/** The widths the dashboard must look right at: a small phone and a laptop. */
export const WIDTHS = [375, 1280] as const;

/**
 * Saves what the page shows at each of {@link WIDTHS} as `<name>-<width>.png`; answers the widths at
 * which the page is wider than the window (so it would scroll sideways).
 */
export const screenshotEachWidth = async (page: Page, name: string): Promise<number[]> => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 800 };
  const overflowing: number[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    if (((await page.evaluate('document.documentElement.scrollWidth')) as number) > width) overflowing.push(width);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
  return overflowing;
};
