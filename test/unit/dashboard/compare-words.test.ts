import type { SecretComparison } from '@client/index';
import {
  choiceProblem,
  defaultPair,
  differencesFirst,
  isPromotable,
  promotedText,
  statusWords,
  summaryText,
  versionText,
  writtenText,
} from '../../../dashboard/src/compare-words';

const pair = { from: 'staging', to: 'production' };

const row = (name: string, status: SecretComparison['status']): SecretComparison => ({
  name,
  status,
  fromVersion: status === 'only-to' ? null : 2,
  toVersion: status === 'only-from' ? null : 1,
});

describe('defaultPair', () => {
  it('compares staging with production when both exist, whatever the order of the list', () => {
    const environments = [{ name: 'development' }, { name: 'production' }, { name: 'staging' }];
    expect(defaultPair(environments)).toEqual({ from: 'staging', to: 'production' });
  });

  it('takes the first two environments otherwise', () => {
    expect(defaultPair([{ name: 'development' }, { name: 'staging' }, { name: 'qa' }])).toEqual({
      from: 'development',
      to: 'staging',
    });
  });

  it('has nothing to compare with fewer than two environments', () => {
    expect(defaultPair([{ name: 'production' }])).toBeUndefined();
    expect(defaultPair([])).toBeUndefined();
  });
});

describe('statusWords', () => {
  it('says each status in plain words, naming the environment a secret is alone in', () => {
    expect((['same', 'different', 'only-from', 'only-to'] as const).map((status) => statusWords(status, pair))).toEqual(
      ['Same', 'Different', 'Only in staging', 'Only in production'],
    );
  });
});

describe('isPromotable', () => {
  it('offers a secret whose value in `to` differs or is missing, never one that is the same or only in `to`', () => {
    expect((['different', 'only-from', 'same', 'only-to'] as const).map((status) => isPromotable({ status }))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('differencesFirst', () => {
  it('puts the differences first, then what only `to` has, then the same ones, each by name', () => {
    const rows = [
      row('A_SAME', 'same'),
      row('B_ONLY_TO', 'only-to'),
      row('Z_DIFFERENT', 'different'),
      row('C_ONLY_FROM', 'only-from'),
      row('A_DIFFERENT', 'different'),
    ];
    expect(differencesFirst(rows).map((entry) => entry.name)).toEqual([
      'A_DIFFERENT',
      'Z_DIFFERENT',
      'C_ONLY_FROM',
      'B_ONLY_TO',
      'A_SAME',
    ]);
    expect(rows[0]?.name).toBe('A_SAME');
  });
});

describe('summaryText', () => {
  it('counts each status in the table’s order', () => {
    const rows = [
      row('A', 'same'),
      row('B', 'different'),
      row('C', 'only-to'),
      row('D', 'only-from'),
      row('E', 'same'),
    ];
    expect(summaryText(rows, pair)).toBe(
      '5 secrets: 1 different, 1 only in staging, 1 only in production, 2 the same.',
    );
  });

  it('leaves out a status no secret has, and says one secret in the singular', () => {
    expect(summaryText([row('A', 'same')], pair)).toBe('1 secret: 1 the same.');
  });

  it('says when neither environment has a secret', () => {
    expect(summaryText([], pair)).toBe('Neither staging nor production has a secret.');
  });
});

describe('versionText', () => {
  it('says a version, or none where the secret is not live', () => {
    expect([versionText(3), versionText(null)]).toEqual(['version 3', 'none']);
  });
});

describe('choiceProblem', () => {
  it('asks for a choice when none is made', () => {
    expect(choiceProblem(0)).toBe('Choose the secrets to promote.');
  });

  it('accepts 1 to 25 secrets, the most one promote takes', () => {
    expect([1, 25].map(choiceProblem)).toEqual([undefined, undefined]);
  });

  it('says the limit and the count beyond it', () => {
    expect(choiceProblem(26)).toBe('A promote takes at most 25 secrets: 26 are chosen. Promote them in parts.');
  });
});

describe('promotedText', () => {
  it('names the version read from `from` and the one it goes over in `to`', () => {
    expect(promotedText({ name: 'API_KEY', fromVersion: 3, toVersion: 2 }, pair)).toBe(
      'API_KEY: version 3 from staging, over version 2 in production',
    );
  });

  it('says a secret is new in `to` when it is not live there', () => {
    expect(promotedText({ name: 'NEW_KEY', fromVersion: 1, toVersion: null }, pair)).toBe(
      'NEW_KEY: version 1 from staging, new in production',
    );
  });
});

describe('writtenText', () => {
  it('says how many secrets went from where to where', () => {
    expect(writtenText(1, pair)).toBe('Promoted 1 secret from staging to production.');
    expect(writtenText(3, pair)).toBe('Promoted 3 secrets from staging to production.');
  });
});
