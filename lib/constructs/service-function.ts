import * as path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { bundlingSettings, esbuildFlags, PROJECT_ROOT, runtimeNodeOptions } from '../bundling';

/** Properties of a {@link ServiceFunction}. */
export interface ServiceFunctionProps {
  /** TypeScript entry file relative to the repository root, e.g. `lambdas/routes/create-token.ts`; it exports `handler`. */
  readonly entry: string;
  /** One line shown in the Lambda console. */
  readonly description: string;
  /** Extra environment, merged over the defaults (a caller's key wins; no default is dropped). */
  readonly environment?: Readonly<Record<string, string>>;
  /** How long CloudWatch keeps the function's logs. */
  readonly logRetention: RetentionDays;
  /** Default: 10 seconds, well inside API Gateway's 29-second integration limit. */
  readonly timeout?: Duration;
  /** Default: 256 MB (more memory also means more CPU for JWT and hash work). */
  readonly memorySize?: number;
  /**
   * For a function invoked asynchronously (by an EventBridge rule): where events that failed every
   * attempt are kept. Without one, the function must be invoked synchronously (API Gateway).
   */
  readonly deadLetterQueue?: IQueue;
  /**
   * Set for a function an event source mapping invokes (a table stream): the mapping retries its
   * batches and keeps what fails every retry in its own on-failure destination, so the function needs
   * no dead-letter queue of its own. Default: API Gateway invokes it synchronously.
   */
  readonly invokedByStream?: boolean;
  /**
   * Set for a function the event source mappings of SQS queues invoke: the queues' redrive keeps what
   * fails, so the function needs no dead-letter queue of its own.
   */
  readonly invokedByQueue?: boolean;
}

/** What every function of the service is told, whatever it serves (see {@link serviceEnvironment}). */
export interface ServiceEnvironmentSettings {
  /** The service's table (`TABLE_NAME`). */
  readonly table: ITable;
  /** The functions' log level (`debug` … `error`), set as Powertools' `POWERTOOLS_LOG_LEVEL`. */
  readonly logLevel: string;
  /** Days an audit event is kept (`AUDIT_RETENTION_DAYS`): each event item's TTL is its time plus these. */
  readonly auditRetentionDays: number;
}

/** What a function of the service that no route calls (offboarding, expiry notices) is built from. */
export interface BackgroundFunctionProps extends ServiceEnvironmentSettings {
  readonly logRetention: RetentionDays;
}

/**
 * A background function whose stateless parts live in a nested stack: the function, its role, log group
 * and what invokes it (a rule, a schedule, a stream mapping) go to `statelessScope`, under a scope of the
 * construct's id; its dead-letter queue stays in the construct's own scope, the root stack, where every
 * stateful resource is, under the logical id it has always had.
 */
export interface NestedBackgroundFunctionProps extends BackgroundFunctionProps {
  /** Where the stateless parts go: a nested stack, so that they do not count against the root template. */
  readonly statelessScope: Construct;
}

/**
 * The environment every function of the service starts from: the authorizer, each route's function and
 * the offboarding function all write to the table, and every state change or denial writes an audit
 * event whose TTL follows `AUDIT_RETENTION_DAYS`. The one place these variables are set.
 */
export const serviceEnvironment = (settings: ServiceEnvironmentSettings): Record<string, string> => ({
  TABLE_NAME: settings.table.tableName,
  // Powertools' Logger reads the level from the environment only in capitals; `debug` would fall back to INFO.
  POWERTOOLS_LOG_LEVEL: settings.logLevel.toUpperCase(),
  AUDIT_RETENTION_DAYS: String(settings.auditRetentionDays),
});

/** Environment every function gets; `ServiceFunctionProps.environment` is merged over it. */
const DEFAULT_ENVIRONMENT: Readonly<Record<string, string>> = runtimeNodeOptions
  ? { NODE_OPTIONS: runtimeNodeOptions }
  : {};

/** Why the functions stay on Node.js 22 although cdk-nag knows a newer runtime (AwsSolutions-L1, Serverless-LambdaLatestVersion). */
const RUNTIME_REASON =
  'Node.js 22 is the LTS line the handlers are built (esbuild target node22) and tested for; moving to a newer runtime is a deliberate upgrade with its own test run.';

/**
 * Every Lambda function of the service, whatever invokes it (a route, the REQUEST authorizer, the
 * offboarding rule, the expiry-notice schedule), with the service's fixed defaults: Node 22 on arm64,
 * X-Ray tracing, its own log group with retention, a role that may write only to that log group, and
 * an esbuild bundle built from the local devDependencies (no Docker) that resolves the tsconfig path
 * aliases.
 *
 * A function API Gateway invokes synchronously (a route's proxy integration or the REQUEST
 * authorizer) needs no dead-letter queue; one invoked asynchronously is given one.
 */
export class ServiceFunction extends Construct {
  /** The function. */
  readonly lambdaFunction: NodejsFunction;
  /** Its execution role; grant table access to this. */
  readonly role: Role;
  /** Its log group. */
  readonly logGroup: LogGroup;
  /** The entry file, relative to the repository root. */
  readonly entry: string;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.entry = props.entry;

    // Retained (the LogGroup default): the authorizer's decisions are an audit trail that outlives a
    // stack delete, until retention expires them.
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention });

    // An own role instead of the default one, whose AWS managed policy may write to every log group.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.entry}`,
    });
    this.logGroup.grantWrite(this.role);

    this.lambdaFunction = new NodejsFunction(this, 'Function', {
      entry: path.join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      tracing: Tracing.ACTIVE,
      timeout: props.timeout ?? Duration.seconds(10),
      memorySize: props.memorySize ?? 256,
      role: this.role,
      logGroup: this.logGroup,
      deadLetterQueue: props.deadLetterQueue,
      // The log format stays TEXT on purpose: Powertools' Logger (lambdas/observability.ts) already
      // writes one JSON object per line, with its own `level` and `timestamp`, and POWERTOOLS_LOG_LEVEL
      // alone decides what is logged.
      environment: { ...DEFAULT_ENVIRONMENT, ...props.environment },
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        forceDockerBundling: false,
        minify: false,
        sourceMap: bundlingSettings.sourceMap,
        sourcesContent: bundlingSettings.sourcesContent,
        target: bundlingSettings.target,
        mainFields: [...bundlingSettings.mainFields],
        tsconfig: bundlingSettings.tsconfig,
        esbuildArgs: esbuildFlags,
        format: OutputFormat.CJS,
        // Ship the SDK version the tests ran against instead of whatever the runtime carries.
        bundleAwsSDK: true,
        logLevel: LogLevel.WARNING,
      },
    });

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support only Resource "*".',
    });
    Validations.of(this.lambdaFunction).acknowledge(
      { id: 'AwsSolutions-L1', reason: RUNTIME_REASON },
      { id: 'Serverless-LambdaLatestVersion', reason: RUNTIME_REASON },
    );
    if (props.invokedByStream) {
      Validations.of(this.lambdaFunction).acknowledge({
        id: 'Serverless-LambdaDLQ',
        reason:
          "An event source mapping on the table's stream invokes the function synchronously; a function's dead-letter queue only ever receives failed asynchronous events. The mapping retries a failed batch, halving it to isolate the failing record, and sends what fails every retry to its on-failure destination, a queue of its own.",
      });
    } else if (props.invokedByQueue) {
      Validations.of(this.lambdaFunction).acknowledge({
        id: 'Serverless-LambdaDLQ',
        reason:
          "Event source mappings of SQS queues invoke the function synchronously; a function's dead-letter queue only ever receives failed asynchronous events. A message that fails stays in its queue, whose redrive policy moves it on (to the next attempt's queue, finally to a dead-letter queue).",
      });
    } else if (!props.deadLetterQueue) {
      Validations.of(this.lambdaFunction).acknowledge({
        id: 'Serverless-LambdaDLQ',
        reason:
          'API Gateway invokes the function synchronously (Lambda proxy integration or REQUEST authorizer); a dead-letter queue only ever receives failed asynchronous events, so it would stay empty. A failed invocation is answered to the client as an error and logged (a failed authorizer refuses the request), and the client may retry.',
      });
    }
  }
}
