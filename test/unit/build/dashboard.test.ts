import { gzipSync } from 'node:zlib';
import { dashboardFiles } from '../../../dashboard/build';

/** The budget for the dashboard's first load: every script it loads, gzipped, OIDC client included. */
const FIRST_LOAD_JS_GZIP_BYTES = 80 * 1024;

describe('the dashboard build', () => {
  const files = dashboardFiles();

  it('writes the page, its one script and its one stylesheet', () => {
    expect([...files.keys()].sort()).toEqual(['app.css', 'app.js', 'index.html']);
    const page = Buffer.from(files.get('index.html') ?? '').toString('utf8');
    expect(page).toContain('src="/app.js"');
    expect(page).toContain('href="/app.css"');
  });

  it('loads at most 80 KB of JavaScript, gzipped', () => {
    const scripts = [...files].filter(([name]) => name.endsWith('.js'));
    const bytes = scripts.reduce((sum, [, contents]) => sum + gzipSync(contents).length, 0);
    expect(bytes).toBeLessThanOrEqual(FIRST_LOAD_JS_GZIP_BYTES);
  });

  it('loads nothing from another host: no absolute URL in the page or the stylesheet', () => {
    for (const name of ['index.html', 'app.css']) {
      expect(Buffer.from(files.get(name) ?? '').toString('utf8')).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]/i);
    }
  });
});
