import type { TableWrite } from './client';
import { memberKey } from './keys';

/** Transaction item that holds only while the acting manager still has a managing role. */
export const managerCheck = (projectId: string, managerUserId: string): TableWrite => ({
  ConditionCheck: {
    Key: memberKey(projectId, managerUserId),
    ConditionExpression: '#role IN (:owner, :admin)',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':owner': 'owner', ':admin': 'admin' },
  },
});
