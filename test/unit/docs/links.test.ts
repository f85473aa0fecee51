import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { PROJECT_ROOT } from '@lib/bundling';

/** README.md and every page in docs/: what a reader follows links between. */
const PAGES = [
  'README.md',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const headingAnchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a Markdown page's headings (outside code blocks), a repeated heading numbered as GitHub does. */
const anchorsOf = (markdown: string): Set<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!heading?.[1]) continue;
    const anchor = headingAnchor(heading[1]);
    const count = seen.get(anchor) ?? 0;
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
    seen.set(anchor, count + 1);
  }
  return anchors;
};

/** The targets of a page's Markdown links and images, outside code blocks and code spans. */
const linksOf = (markdown: string): string[] =>
  markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '')
    .match(/\]\(([^)\s]+)\)/g)
    ?.map((link) => link.slice(2, -1)) ?? [];

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe.each(PAGES)('%s', (page) => {
  const markdown = readFileSync(join(PROJECT_ROOT, page), 'utf8');
  const relativeLinks = linksOf(markdown).filter((target) => !isExternal(target));

  it('links only to files and headings that exist', () => {
    const broken = relativeLinks.filter((target) => {
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(PROJECT_ROOT, page) : join(PROJECT_ROOT, dirname(page), path);
      if (!existsSync(file)) return true;
      if (anchor === undefined || !file.endsWith('.md')) return false;
      return !anchorsOf(readFileSync(file, 'utf8')).has(anchor);
    });
    expect(broken.map((target) => `${page} → ${target}`)).toEqual([]);
  });

  it('keeps its links inside the repository', () => {
    const outside = relativeLinks.filter((target) =>
      relative(PROJECT_ROOT, join(PROJECT_ROOT, dirname(page), target.split('#')[0] ?? '')).startsWith('..'),
    );
    expect(outside).toEqual([]);
  });
});

describe('headingAnchor', () => {
  it.each([
    ['Running it locally', 'running-it-locally'],
    ['Audit events locally (`event:` lines)', 'audit-events-locally-event-lines'],
    ["Sessions and the dashboard's sign-in", 'sessions-and-the-dashboards-sign-in'],
    ['The caller: `GET /me`', 'the-caller-get-me'],
  ])('turns %s into #%s', (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });
});
