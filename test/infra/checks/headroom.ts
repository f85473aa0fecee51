import { routes } from '@contract/routes';
import { ROUTE_DOMAINS, type RouteDomain } from '@lib/constructs/route-stack';
import { type Synthesized, synthesize } from '@test/infra/synth';

// Stack tests of the templates' size and of what must never move: CloudFormation refuses a template of
// more than 500 resources, and a resource whose logical id changes is replaced (a new, empty table).

/** Where a template stops being comfortable: well short of CloudFormation's 500, with room for a domain to grow. */
const MAX_RESOURCES_PER_TEMPLATE = 400;

/**
 * The root template's own limit: every route adds a method (and often a path resource and a preflight) to
 * it, and those cannot move (docs/contributing.md, "The stack's templates"), so the root keeps room for
 * them by holding nothing stateless that a nested stack can hold.
 */
const MAX_ROOT_RESOURCES = 250;

/**
 * What holds data or is addressed from outside, with the logical id an existing deployment has it under:
 * a change of id replaces it (the table, key, pool and buckets lose what they hold; the API, distribution,
 * pool client and topic get new addresses that users, DNS and subscriptions still point at; the
 * dashboard has a fixed name, so a copy made in another template would be deleted with the old one).
 */
const STATEFUL: readonly (readonly [type: string, logicalId: string])[] = [
  ['AWS::DynamoDB::Table', 'DataStoreTable1E9F5574'],
  ['AWS::KMS::Key', 'DataStoreSecretsKey4B7B0EB8'],
  ['AWS::KMS::Alias', 'DataStoreSecretsKeyAlias6AA1961C'],
  ['AWS::Cognito::UserPool', 'DataStoreUserPool21A0D0C4'],
  ['AWS::Cognito::UserPoolDomain', 'DataStoreUserPoolSignInDomain6B480736'],
  ['AWS::Cognito::UserPoolClient', 'DataStoreUserPoolDashboardClient617856D4'],
  ['AWS::S3::Bucket', 'DashboardFilesFF9B60FA'],
  ['AWS::S3::Bucket', 'DashboardAccessLogs2F3DA5FE'],
  ['AWS::CloudFront::Distribution', 'DashboardDistribution90702DDE'],
  ['AWS::Events::EventBus', 'AuditStreamBusF8A8A0C5'],
  ['AWS::Events::Archive', 'AuditStreamBusArchiveB7BF4581'],
  ['AWS::SQS::Queue', 'AuditStreamDeadLetterQueueDE743B55'],
  ['AWS::SQS::Queue', 'OffboardingDeadLetterQueue4A786E90'],
  ['AWS::SQS::Queue', 'ExpiryNoticesDeadLetterQueue793A757B'],
  ['AWS::SQS::Queue', 'SecretVersionCleanupDeadLetterQueue9E1D490E'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt1QueueD2431B29'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt2QueueA10361BF'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt3Queue3AED6103'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt4Queue0A3EC3B1'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt5QueueB1285968'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt6QueueF28CB7CE'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt7Queue00CA9A61'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt8Queue0E15B15B'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt9Queue57EE25D9'],
  ['AWS::SQS::Queue', 'WebhookDeliveryAttempt10Queue67AD8210'],
  ['AWS::SQS::Queue', 'WebhookDeliveryDeadLetterQueueFDE28149'],
  ['AWS::ApiGateway::RestApi', 'ServiceApi85D8F981'],
  ['AWS::SNS::Topic', 'ObservabilityAlarmTopicF724909D'],
  ['AWS::KMS::Key', 'ObservabilityAlarmTopicKey48516DE9'],
  ['AWS::CloudWatch::Dashboard', 'ObservabilityDashboard9A1D08B3'],
];

let synthesized: Synthesized;

beforeAll(() => {
  synthesized = synthesize();
});

const resourceCounts = (): [string, number][] =>
  [...synthesized.templates].map(([path, template]) => [path, Object.keys(template.toJSON().Resources ?? {}).length]);

describe('templates', () => {
  it(`keeps every template at most ${MAX_RESOURCES_PER_TEMPLATE} resources, and prints each count`, () => {
    const counts = resourceCounts();
    process.stdout.write(`${counts.map(([path, count]) => `${path}: ${count} resources`).join('\n')}\n`);
    expect(counts.filter(([, count]) => count > MAX_RESOURCES_PER_TEMPLATE)).toEqual([]);
  });

  it(`keeps the root template at most ${MAX_ROOT_RESOURCES} resources`, () => {
    const root = synthesized.templates.get(synthesized.stack.node.path);
    if (!root) throw new Error('No root template');
    expect(Object.keys(root.toJSON().Resources).length).toBeLessThanOrEqual(MAX_ROOT_RESOURCES);
  });

  it('keeps no function, trigger or deployment in the root template but the auto-delete provider CDK puts beside its bucket', () => {
    // The background functions and the authorizer's are in BackgroundStack (with their rules, schedule and
    // stream mapping), the dashboard's deployment in DashboardDeploymentStack, the route functions in their
    // domains' stacks: the root keeps its room for the API's methods.
    const root = synthesized.templates.get(synthesized.stack.node.path);
    if (!root) throw new Error('No root template');
    const movable = new Set([
      'AWS::Lambda::Function',
      'AWS::Lambda::EventSourceMapping',
      'AWS::Lambda::LayerVersion',
      'AWS::Events::Rule',
      'AWS::Scheduler::Schedule',
      'Custom::CDKBucketDeployment',
    ]);
    const inRoot = Object.entries(root.toJSON().Resources as Record<string, { Type: string }>)
      .filter(([, resource]) => movable.has(resource.Type))
      .map(([id]) => id);
    expect(inRoot).toEqual([expect.stringMatching(/^CustomS3AutoDeleteObjectsCustomResourceProviderHandler/)]);
  });

  it('gives each route domain its own nested stack holding exactly its routes’ functions', () => {
    const { routeStacks, routeFunctions } = synthesized.stack.serviceApi;
    expect([...routeStacks.keys()].sort()).toEqual(Object.keys(ROUTE_DOMAINS).sort());
    for (const [domain, routeStack] of routeStacks) {
      const tags: readonly string[] = ROUTE_DOMAINS[domain as RouteDomain];
      const expected = routes.filter((route) => tags.includes(route.tag)).map((route) => route.handler);
      expect([...routeStack.functions.keys()].sort()).toEqual(expected.sort());
    }
    expect(routeFunctions.size).toBe(routes.length);
  });
});

describe('stateful resources', () => {
  it.each(STATEFUL)('keeps the %s %s in the root stack under its logical id', (type, logicalId) => {
    expect(Object.keys(synthesized.template.findResources(type))).toContain(logicalId);
  });

  it('keeps every table, key, user pool, bucket, distribution, bus, archive, queue and dashboard in the root stack', () => {
    const stateful = new Set(STATEFUL.map(([type]) => type));
    const nested = [...synthesized.templates]
      .filter(([path]) => path !== synthesized.stack.node.path)
      .flatMap(([path, template]) =>
        Object.entries(template.toJSON().Resources as Record<string, { Type: string }>)
          .filter(([, resource]) => stateful.has(resource.Type))
          .map(([id, resource]) => `${path}: ${resource.Type} ${id}`),
      );
    expect(nested).toEqual([]);
  });

  it('has no other resource of those types than the listed ones', () => {
    const stateful = new Set(STATEFUL.map(([type]) => type));
    const found = Object.entries(synthesized.template.toJSON().Resources as Record<string, { Type: string }>)
      .filter(([, resource]) => stateful.has(resource.Type))
      .map(([id, resource]) => [resource.Type, id]);
    expect(found.sort()).toEqual(STATEFUL.map(([type, id]) => [type, id]).sort());
  });
});
