import type { TableWrite } from './client';
import { projectKey } from './keys';

/**
 * A project item's count of one kind of its items (environments, service accounts, webhooks), which
 * holds a limit under concurrent creates: each create raises it in its own transaction, only below the
 * limit, and each delete lowers it in its own.
 */
export type ProjectCounter = 'environmentCount' | 'serviceAccountCount' | 'webhookCount';

/** Raises `counter` by one, only while the project exists and the count is below `max`. */
export const raiseProjectCount = (projectId: string, counter: ProjectCounter, max: number): TableWrite => ({
  Update: {
    Key: projectKey(projectId),
    UpdateExpression: `SET ${counter} = if_not_exists(${counter}, :zero) + :one`,
    ConditionExpression: `attribute_exists(PK) AND (attribute_not_exists(${counter}) OR ${counter} < :max)`,
    ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max },
  },
});

/** Lowers `counter` by one, never below zero. */
export const lowerProjectCount = (projectId: string, counter: ProjectCounter): TableWrite => ({
  Update: {
    Key: projectKey(projectId),
    UpdateExpression: `SET ${counter} = ${counter} - :one`,
    ConditionExpression: `${counter} > :zero`,
    ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
  },
});
