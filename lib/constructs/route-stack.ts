import type { ApiTag, RouteContract } from '@contract/route';
import { grantsOf } from '@contract/table-access';
import { NestedStack } from 'aws-cdk-lib';
import type { IRestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { grantKeyUse } from './key-use';
import { ServiceFunction } from './service-function';
import { grantTableAccess } from './table-access';

/**
 * The domains whose routes share a nested stack, and which API group each holds. A domain's routes,
 * their functions, roles, log groups, permissions and alarms live in its own template, so one domain can
 * grow by dozens of routes without touching another's, and none nears CloudFormation's 500 resources.
 * The record is exhaustive over the groups: a new group must be given a domain (an existing one, or its own).
 */
export const ROUTE_DOMAINS = {
  Tokens: ['tokens'],
  Projects: ['projects', 'members', 'serviceAccounts', 'audit'],
  Secrets: ['secrets'],
  Changes: ['changes'],
  Shares: ['shares'],
  Webhooks: ['webhooks'],
} as const satisfies Record<string, readonly ApiTag[]>;

/** A route domain, e.g. `Secrets`; its nested stack's construct id is `<domain>Routes`. */
export type RouteDomain = keyof typeof ROUTE_DOMAINS;

/** Every group is in exactly one domain (a compile-time check: this fails to type when a group is left out). */
type UnplacedTags = Exclude<ApiTag, (typeof ROUTE_DOMAINS)[RouteDomain][number]>;
const everyTagPlaced: UnplacedTags extends never ? true : UnplacedTags = true;
void everyTagPlaced;

/** The domain whose nested stack holds a route's function. */
export const domainOf = (route: RouteContract): RouteDomain => {
  const domain = (Object.keys(ROUTE_DOMAINS) as RouteDomain[]).find((name) =>
    (ROUTE_DOMAINS[name] as readonly ApiTag[]).includes(route.tag),
  );
  if (domain === undefined) throw new Error(`The group ${route.tag} of ${route.handler} has no domain`);
  return domain;
};

/** Entry file of a route's handler module. */
export const routeEntry = (route: RouteContract): string => `lambdas/routes/${route.handler}.ts`;

/** `create-token` → `CreateToken`: construct ids are PascalCase. */
export const pascalCase = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** API Gateway's form of a resource path in an execute-api ARN: each `{param}` is `*`. */
const pathForArn = (path: string): string => path.replace(/\{[^}]+\}/g, '*');

/** Properties of a {@link RouteStack}. */
export interface RouteStackProps {
  /** The domain's routes, each given its own function. */
  readonly routes: readonly RouteContract[];
  /** The REST API whose methods invoke the functions (its methods stay in the parent stack). */
  readonly api: IRestApi;
  /** The stage name, as a literal: each function may be invoked by its own method on this stage only. */
  readonly stageName: string;
  readonly table: ITable;
  /** The key of the projects' data keys: only functions whose contract names a `keyUse` see it. */
  readonly secretsKey: IKey;
  /** Every function's environment (table, log level, audit retention, the dashboard's origin). */
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetention: RetentionDays;
}

/**
 * One domain's route functions in a nested stack of their own: each function with its role (the table
 * calls its contract declares, its KMS calls), its log group and the permission that lets its one method
 * invoke it. The methods stay on the API in the parent stack, where their logical IDs have always been:
 * an upgrade updates each method's integration in place rather than creating a second method on the
 * same path, which API Gateway refuses.
 *
 * The permission is built from the stage's literal name, not the stage construct: the stage depends on
 * the deployment, which depends on every method, which depends on this stack, so a reference back to
 * the stage would be a cycle.
 */
export class RouteStack extends NestedStack {
  /** The function of each route, keyed by its handler name. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;

  constructor(scope: Construct, id: string, props: RouteStackProps) {
    super(scope, id, { description: `Secrets Service routes: ${id}` });
    const functions = new Map<string, ServiceFunction>();
    for (const route of props.routes) {
      if (functions.has(route.handler)) throw new Error(`Handler ${route.handler} serves two routes`);
      const fn = new ServiceFunction(this, `${pascalCase(route.handler)}Function`, {
        entry: routeEntry(route),
        description: `${route.method} ${route.path}: ${route.summary}`,
        logRetention: props.logRetention,
        environment: {
          ...props.environment,
          ...(route.keyUse && { SECRETS_KEY_ID: props.secretsKey.keyArn }),
        },
      });
      grantTableAccess(fn.role, props.table, grantsOf(route.dataAccess));
      if (route.keyUse) grantKeyUse(fn.role, props.secretsKey, route.keyUse);
      fn.lambdaFunction.addPermission('ApiPermission', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: props.api.arnForExecuteApi(route.method, pathForArn(route.path), props.stageName),
      });
      functions.set(route.handler, fn);
    }
    this.functions = functions;
  }
}
