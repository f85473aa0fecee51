import { createTokenRoute } from '@contract/routes/create-token';
import { listMembersRoute } from '@contract/routes/list-members';
import { listTokensRoute } from '@contract/routes/list-tokens';
import { removeMemberRoute } from '@contract/routes/remove-member';
import { grantsOf } from '@contract/table-access';

/** A grant as one line per action and partition, whatever the grouping. */
const lines = (calls: Parameters<typeof grantsOf>[0]) =>
  grantsOf(calls)
    .flatMap((grant) =>
      grant.actions.flatMap((action) =>
        grant.partitions.map((partition) => `${action} ${grant.index ?? 'table'} ${partition}`),
      ),
    )
    .sort();

describe('grants derived from the calls a route lists', () => {
  it('grants each part of a transaction its own action on its entity’s partition', () => {
    expect(
      lines([
        {
          operation: 'TransactWriteItems',
          actions: [
            { action: 'ConditionCheck', entity: 'Member' },
            { action: 'Put', entity: 'Member' },
            { action: 'Update', entity: 'TokenSlots' },
            { action: 'Delete', entity: 'Token' },
          ],
        },
      ]),
    ).toEqual([
      'dynamodb:ConditionCheckItem table PROJECT#',
      'dynamodb:DeleteItem table TOKEN#',
      'dynamodb:PutItem table PROJECT#',
      'dynamodb:UpdateItem table USER#',
    ]);
  });

  it('grants a query of the list index on the index, under the user’s partition', () => {
    expect(lines([{ operation: 'Query', entity: 'Token', consistent: false, index: 'GSI1' }])).toEqual([
      'dynamodb:Query GSI1 USER#',
    ]);
    expect(lines([{ operation: 'Query', entity: 'Member', consistent: true }])).toEqual([
      'dynamodb:Query table PROJECT#',
    ]);
  });

  it("puts an audit event in the user's trail and lists a project's events in the list index", () => {
    expect(
      lines([
        {
          operation: 'TransactWriteItems',
          actions: [
            { action: 'Put', entity: 'Project' },
            { action: 'Put', entity: 'ProjectAuditEvent' },
          ],
        },
        { operation: 'Query', entity: 'AuditEvent', consistent: false },
        { operation: 'Query', entity: 'ProjectAuditEvent', consistent: false, index: 'GSI1' },
      ]),
    ).toEqual([
      'dynamodb:PutItem table AUDIT#',
      'dynamodb:PutItem table PROJECT#',
      'dynamodb:Query GSI1 PROJECT#',
      'dynamodb:Query table AUDIT#',
    ]);
    // A user's trail is in the table only: no grant on the list index can come of it.
    expect(() => lines([{ operation: 'Query', entity: 'AuditEvent', consistent: false, index: 'GSI1' }])).toThrow(
      'AuditEvent is not in GSI1',
    );
  });

  it('refuses a query of the list index for an entity it does not list', () => {
    expect(() => grantsOf([{ operation: 'Query', entity: 'Project', consistent: false, index: 'GSI1' }])).toThrow(
      'Project is not in GSI1',
    );
  });

  it('gives the routes the grants they had when they were written out by hand', () => {
    expect(lines(createTokenRoute.dataAccess)).toEqual([
      'dynamodb:BatchGetItem table USER#',
      'dynamodb:GetItem table USER#',
      'dynamodb:PutItem table AUDIT#',
      'dynamodb:PutItem table TOKEN#',
      'dynamodb:PutItem table USER#',
      'dynamodb:UpdateItem table USER#',
    ]);
    expect(lines(listTokensRoute.dataAccess)).toEqual(['dynamodb:Query GSI1 USER#']);
    expect(lines(listMembersRoute.dataAccess)).toEqual([
      'dynamodb:BatchGetItem table USER#',
      'dynamodb:Query table PROJECT#',
    ]);
    // The claim re-checked in the transaction, and the member's own copy of the membership deleted.
    expect(lines(removeMemberRoute.dataAccess)).toEqual([
      'dynamodb:ConditionCheckItem table EMAIL#',
      'dynamodb:ConditionCheckItem table PROJECT#',
      'dynamodb:DeleteItem table PROJECT#',
      'dynamodb:DeleteItem table USER#',
      'dynamodb:GetItem table EMAIL#',
      'dynamodb:GetItem table PROJECT#',
      'dynamodb:PutItem table AUDIT#',
    ]);
  });
});
