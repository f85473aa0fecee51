import { clock } from '@lambdas/domain/clock';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { type AddMemberBody, addMemberBody } from '@lambdas/http/bodies/add-member';
import { projectParams } from '@lambdas/http/params';
import { json } from '@lambdas/http/responses';
import { addMember } from '@lambdas/use-cases/projects';
import middy from '@middy/core';

/** POST /api/v1/projects/{projectId}/members: adds a signed-in user as `member` or `admin`. */
export const addMemberHandler = async (event: ApiEvent<AddMemberBody, { projectId: string }>) => {
  await addMember(event.principal, event.params.projectId, event.input, clock.now());
  return json(200, { success: true, message: 'Member added successfully' });
};

export const handler = middy(addMemberHandler, MIDDY_OPTIONS).use(
  apiMiddleware({ body: addMemberBody, params: projectParams }),
);
