import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '@lib/bundling';
import { loadConfig } from '@lib/config';
import { addNagPacks } from '@lib/nag-packs';
import { ServiceStack } from '@lib/service-stack';
import { App, type CfnResource, type NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT, VALIDATION_REPORT_FILE } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';

/** One unacknowledged finding of a validation plugin (cdk-nag, CDK's own annotations or template rules). */
export interface Finding {
  readonly plugin: string;
  readonly rule: string;
  readonly severity: string;
  readonly constructPath: string;
}

/** One `Validations.of(construct).acknowledge({ id, reason })` in the construct tree. */
export interface Acknowledgement {
  readonly constructPath: string;
  readonly id: string;
  readonly reason: string;
}

/** A synthesized app as bin/app.ts builds it. */
export interface Synthesized {
  readonly stack: ServiceStack;
  /**
   * The app's resources as one template: the root stack's, and every nested stack's with its parameters
   * replaced by what the root passes in and the root's reads of its outputs by their values, so that a
   * reference reads the same wherever the two ends live. Its outputs are the root stack's.
   */
  readonly template: Template;
  /** Every template of the app by its stack's construct path: the root's, then each nested stack's. */
  readonly templates: ReadonlyMap<string, Template>;
  /** Where the cloud assembly was written: the bundled functions are its `asset.<hash>` folders. */
  readonly assemblyDirectory: string;
  /** Every finding of the validation report; empty when the app is clean. */
  readonly findings: readonly Finding[];
  /**
   * The cdk-nag packs added to the app (`addNagPacks`). The report lists only plugins with findings, so
   * the canaries of checks/context.ts are what show each pack really runs.
   */
  readonly nagPacks: readonly string[];
  /** Every acknowledged rule of the app, with the construct it was recorded on. */
  readonly acknowledgements: readonly Acknowledgement[];
}

/** Options of {@link synthesize}. */
export interface SynthesizeOptions {
  /** Context on top of cdk.json's, like `-c key=value`. */
  readonly context?: Record<string, unknown>;
  /** Bundle the functions with esbuild (slow); otherwise bundling is skipped as `cdk synth --exclusively` would. */
  readonly bundle?: boolean;
  /** Called with the stack before synthesis, e.g. to add a resource. */
  readonly extend?: (stack: ServiceStack) => void;
}

interface ValidationReport {
  readonly pluginReports: readonly {
    readonly pluginName: string;
    readonly violations: readonly {
      readonly ruleName: string;
      readonly severity: string;
      readonly violatingConstructs: readonly { readonly constructPath: string }[];
    }[];
  }[];
}

/** cdk.json's context (feature flags), so the tests synthesize what `cdk synth` synthesizes. */
const cdkJsonContext = (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: object })
  .context;

/** Every acknowledgement recorded in the tree under `root` (aws-cdk-lib prefixes ids with `Annotation::` or not, by version). */
const acknowledgementsUnder = (root: IConstruct): Acknowledgement[] =>
  root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([key, reason]) => ({
          constructPath: construct.node.path,
          id: key.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );

/**
 * Builds the app the way bin/app.ts does (cdk.json's context, the cdk-nag packs of `addNagPacks` as
 * validation plugins) and synthesizes it, once per process for the same options. Synthesis is told not
 * to throw on findings so that the tests can read the validation report and list every finding in
 * their failure message.
 */
export const synthesize = (options: SynthesizeOptions = {}): Synthesized => {
  if (options.extend) return synthesizeOnce(options);
  const key = JSON.stringify([options.bundle ?? false, options.context ?? {}]);
  const kept = synthesized.get(key) ?? synthesizeOnce(options);
  synthesized.set(key, kept);
  return kept;
};

/**
 * Each app synthesized so far in this process, by its options: the infra checks share one process
 * (test/infra/app.test.ts) and most synthesize the same app; none changes what it reads. An app
 * extended by a test is built afresh.
 */
const synthesized = new Map<string, Synthesized>();

/**
 * Put first on PATH while the functions are bundled: its `npx` runs esbuild itself where NodejsFunction
 * runs `npx --no-install esbuild`, whose npx alone took a third of service-stack.test.ts's CPU
 * (`test/infra/bin/npx`). The same esbuild builds the same bundles.
 */
const DIRECT_ESBUILD = path.join(__dirname, 'bin');

/** Runs `build` with {@link DIRECT_ESBUILD} first on PATH when `bundle` is set. */
const withDirectEsbuild = <T>(bundle: boolean, build: () => T): T => {
  const before = process.env.PATH ?? '';
  if (bundle) process.env.PATH = `${DIRECT_ESBUILD}${path.delimiter}${before}`;
  try {
    return build();
  } finally {
    process.env.PATH = before;
  }
};

const synthesizeOnce = (options: SynthesizeOptions): Synthesized => {
  const app = new App({
    // The creation stack trace CDK records for each construct goes to the assembly's metadata, which no
    // check reads; under jest each trace is source-mapped (4.4 s of 67 s in a profile of app.test.ts).
    stackTraces: false,
    context: {
      ...cdkJsonContext,
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false,
      ...options.context,
    },
  });
  const nagPacks = addNagPacks(app);
  // NodejsFunction bundles each function as it is constructed.
  const stack = withDirectEsbuild(options.bundle ?? false, () => {
    const built = new ServiceStack(app, 'SecretsService', { config: loadConfig(app) });
    options.extend?.(built);
    return built;
  });

  const assembly = app.synth();
  const report = JSON.parse(
    fs.readFileSync(path.join(assembly.directory, VALIDATION_REPORT_FILE), 'utf8'),
  ) as ValidationReport;
  const findings = report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((violation) =>
      violation.violatingConstructs.map((construct) => ({
        plugin: plugin.pluginName,
        rule: violation.ruleName,
        severity: violation.severity,
        constructPath: construct.constructPath,
      })),
    ),
  );
  return {
    stack,
    template: flattened(stack),
    templates: new Map(stacksOf(stack).map((each) => [each.node.path, Template.fromStack(each)])),
    assemblyDirectory: assembly.directory,
    findings,
    nagPacks,
    acknowledgements: acknowledgementsUnder(app),
  };
};

/** The stack and every stack nested in it, the root first. */
const stacksOf = (root: Stack): Stack[] =>
  root.node.findAll().filter((construct): construct is Stack => Stack.isStack(construct));

interface CfnTemplate {
  Parameters?: Record<string, unknown>;
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** `value` with every node `replace` answers for replaced (depth first; `undefined` keeps the node). */
const substitute = (value: unknown, replace: (node: unknown) => unknown): unknown => {
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) return value.map((item) => substitute(item, replace));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, replace)]));
  }
  return value;
};

/** See {@link Synthesized.template}: nested stacks' parameters and outputs resolved across the two ends. */
const flattened = (root: Stack): Template => {
  const rootJson = Template.fromStack(root).toJSON() as CfnTemplate;
  const merged: CfnTemplate = { ...rootJson, Resources: { ...rootJson.Resources } };
  const outputs = new Map<string, unknown>();
  for (const nested of stacksOf(root).filter((each) => each !== root)) {
    const nestedStack = nested as NestedStack;
    const resourceId = root.getLogicalId(nestedStack.nestedStackResource as CfnResource);
    const passed = (rootJson.Resources[resourceId]?.Properties?.Parameters ?? {}) as Record<string, unknown>;
    const json = substitute(Template.fromStack(nested).toJSON(), (node) => {
      const ref = (node as { Ref?: unknown } | null)?.Ref;
      return typeof ref === 'string' && ref in passed ? passed[ref] : undefined;
    }) as CfnTemplate;
    for (const [id, resource] of Object.entries(json.Resources)) {
      if (id in merged.Resources) throw new Error(`Two templates hold the logical id ${id}`);
      merged.Resources[id] = resource;
    }
    for (const [name, output] of Object.entries(json.Outputs ?? {})) {
      outputs.set(JSON.stringify({ 'Fn::GetAtt': [resourceId, `Outputs.${name}`] }), output.Value);
    }
  }
  return Template.fromJSON(substitute(merged, (node) => outputs.get(JSON.stringify(node))) as Record<string, unknown>, {
    skipCyclicalDependenciesCheck: true,
  });
};

/** Every resource of every template of the app of this type, by logical id (unique across the app's templates). */
export const resourcesAcrossTemplates = (
  synthesized: Synthesized,
  type: string,
): Record<string, Record<string, unknown>> => {
  const found: Record<string, Record<string, unknown>> = {};
  for (const template of synthesized.templates.values()) {
    for (const [id, resource] of Object.entries(template.findResources(type))) {
      if (id in found) throw new Error(`Two templates hold a ${type} with the logical id ${id}`);
      found[id] = resource;
    }
  }
  return found;
};

/** Full API Gateway path of each AWS::ApiGateway::Resource by logical id, from its PathPart and ParentId chain. */
export const resourcePaths = (template: Template): Map<string, string> => {
  const resources = template.findResources('AWS::ApiGateway::Resource');
  const pathOf = (id: string): string => {
    const properties = resources[id]?.Properties as { ParentId: { Ref?: string }; PathPart: string };
    return `${properties.ParentId.Ref ? pathOf(properties.ParentId.Ref) : ''}/${properties.PathPart}`;
  };
  return new Map(Object.keys(resources).map((id) => [id, pathOf(id)]));
};

/** One statement of an IAM policy document, as a template holds it. */
export interface PolicyStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Principal?: unknown;
  readonly Condition?: unknown;
}

/** A statement's actions, always as a list. */
export const actionsOf = (statement: PolicyStatement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

/** Every statement of every identity policy of `template` attached to the role of this logical id. */
export const statementsOfRole = (template: Template, roleLogicalId: string): PolicyStatement[] =>
  Object.values(template.findResources('AWS::IAM::Policy'))
    .map((resource) => (resource as { Properties: Record<string, unknown> }).Properties)
    .filter((properties) => (properties.Roles as { Ref?: string }[]).some((role) => role.Ref === roleLogicalId))
    .flatMap((properties) => (properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement);
