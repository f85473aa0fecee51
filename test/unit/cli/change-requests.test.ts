import {
  age,
  approvalsLeft,
  type ChangeRequest,
  changeLine,
  describeRequest,
  listRows,
  restoreEntry,
  setName,
} from '../../../cli/change-requests';
import { UsageError } from '../../../cli/errors';
import { printable, shellWord } from '../../../cli/text';

const NOW = Date.parse('2026-05-01T12:00:00.000Z');

const request = (fields: Partial<ChangeRequest> = {}): ChangeRequest => ({
  id: 'chg_0123456789abcdef',
  environment: 'production',
  status: 'open',
  author: { userId: 'usr_1', email: 'ana@example.com' },
  note: 'Rotate the key',
  changes: [{ name: 'API_KEY', action: 'set', fromVersion: 3, restoreVersion: null }],
  approvals: [],
  approvalsNeeded: 2,
  createdAt: '2026-05-01T11:55:00.000Z',
  expiresAt: '2026-05-15T11:55:00.000Z',
  closedBy: null,
  closedAt: null,
  forcedReason: null,
  ...fields,
});

describe('a change request’s changes by name', () => {
  it('says what each change does and the version it was proposed on', () => {
    expect(changeLine({ name: 'API_KEY', action: 'set', fromVersion: 3, restoreVersion: null })).toBe(
      'set API_KEY (v3 → new)',
    );
    expect(changeLine({ name: 'NEW_KEY', action: 'set', fromVersion: 0, restoreVersion: null })).toBe(
      'set NEW_KEY (none → new)',
    );
    expect(changeLine({ name: 'OLD', action: 'delete', fromVersion: 4, restoreVersion: null })).toBe(
      'delete OLD (at v4)',
    );
    expect(changeLine({ name: 'X', action: 'restore', fromVersion: 5, restoreVersion: 2 })).toBe(
      'restore X to v2 (at v5)',
    );
  });

  it('writes a set’s value JSON-quoted, so that a line break or an escape cannot move the terminal', () => {
    const change = { name: 'API_KEY', action: 'set', fromVersion: 1, restoreVersion: null } as const;
    expect(changeLine(change, 'two\nlines "quoted" \u001b[2J\u0085')).toBe(
      'set API_KEY (v1 → new) = "two\\nlines \\"quoted\\" \\u001b[2J\\u0085"',
    );
  });
});

describe('secrets changes list', () => {
  it('answers a row per request under its header: id, status, approvals, author, age, changes and note', () => {
    const rows = listRows(
      [
        request({ approvals: [{ userId: 'usr_2', email: 'bo@example.com', at: '2026-05-01T11:58:00.000Z' }] }),
        request({
          id: 'chg_fedcba9876543210',
          status: 'cancelled',
          note: null,
          author: { userId: 'usr_3', email: null },
        }),
      ],
      NOW,
    );
    expect(rows).toEqual([
      ['ID', 'STATUS', 'APPROVALS', 'AUTHOR', 'AGE', 'CHANGES', 'NOTE'],
      ['chg_0123456789abcdef', 'open', '1/2', 'ana@example.com', '5m', '1', 'Rotate the key'],
      ['chg_fedcba9876543210', 'cancelled', '0/2', 'usr_3', '5m', '1', ''],
    ]);
  });

  it('shows a note on one line, cut short, with nothing that moves the terminal', () => {
    const [, row] = listRows([request({ note: `first\n\u001b[31m${'x'.repeat(100)}` })], NOW);
    expect(row?.[6]).toBe(`first \\u001b[31m${'x'.repeat(48)}…`);
  });
});

describe('secrets changes show', () => {
  it('answers the state, who and when, the note, and each change with its value when given', () => {
    const shown = describeRequest(
      request({
        changes: [
          { name: 'API_KEY', action: 'set', fromVersion: 3, restoreVersion: null },
          { name: 'OLD', action: 'delete', fromVersion: 1, restoreVersion: null },
        ],
      }),
      NOW,
      { API_KEY: 'v4' },
    );
    expect(shown).toEqual({
      heading: 'chg_0123456789abcdef  open, 0 of 2 approvals',
      fields: [
        ['author', 'ana@example.com'],
        ['created', '2026-05-01T11:55:00.000Z (5m ago)'],
        ['expires', '2026-05-15T11:55:00.000Z'],
        ['note', 'Rotate the key'],
      ],
      changes: ['set API_KEY (v3 → new) = "v4"', 'delete OLD (at v1)'],
    });
  });

  it('says who approved and closed a request, and the reason of one applied without its approvals', () => {
    const { fields } = describeRequest(
      request({
        status: 'applied',
        approvalsNeeded: 1,
        approvals: [{ userId: 'usr_2', email: 'bo@example.com', at: '2026-05-01T11:58:00.000Z' }],
        closedBy: { userId: 'usr_4', email: 'owner@example.com' },
        closedAt: '2026-05-01T11:59:00.000Z',
        forcedReason: 'Outage',
      }),
      NOW,
    );
    expect(fields.slice(2)).toEqual([
      ['note', 'Rotate the key'],
      ['approved', 'by bo@example.com at 2026-05-01T11:58:00.000Z'],
      ['closed', 'applied by owner@example.com at 2026-05-01T11:59:00.000Z'],
      ['forced', 'without its approvals: Outage'],
    ]);
  });

  it('counts the approvals an open request still waits for', () => {
    expect(approvalsLeft(request())).toBe(2);
    expect(approvalsLeft(request({ approvals: [{ userId: 'u', email: null, at: '2026-05-01T11:58:00.000Z' }] }))).toBe(
      1,
    );
  });
});

describe('age', () => {
  it('answers the largest whole unit, and no less than 0s for a clock behind the service’s', () => {
    const ago = (ms: number) => new Date(NOW - ms).toISOString();
    expect(age(ago(59_000), NOW)).toBe('59s');
    expect(age(ago(60_000), NOW)).toBe('1m');
    expect(age(ago(3 * 3_600_000), NOW)).toBe('3h');
    expect(age(ago(47 * 3_600_000), NOW)).toBe('47h');
    expect(age(ago(3 * 86_400_000), NOW)).toBe('3d');
    expect(age(ago(-5_000), NOW)).toBe('0s');
  });
});

describe('secrets changes propose’s flags', () => {
  it('takes --restore NAME:VERSION', () => {
    expect(restoreEntry('API_KEY:2')).toEqual({ name: 'API_KEY', version: 2 });
    for (const text of ['API_KEY', 'API_KEY:0', 'API_KEY:v2', '1X:2']) {
      expect(() => restoreEntry(text)).toThrow(UsageError);
    }
  });

  it('refuses a value in --set without repeating it', () => {
    expect(setName('API_KEY')).toBe('API_KEY');
    expect(() => setName('API_KEY=hunter2')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
    expect(() => setName('9LIVES')).toThrow(UsageError);
  });
});

describe('printable and shellWord', () => {
  it('escapes controls, bidirectional overrides and separators, and keeps other text', () => {
    expect(printable('Zürich ✓ \u202eevil\u2028\u0000 \u{e0041}')).toBe(
      'Zürich ✓ \\u202eevil\\u2028\\u0000 \\u{e0041}',
    );
  });

  it('quotes a path only when a shell would read it otherwise', () => {
    expect(shellWord('./prod.env')).toBe('./prod.env');
    expect(shellWord("my file's.env")).toBe(`'my file'\\''s.env'`);
  });
});
