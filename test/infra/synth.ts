import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '@lib/bundling';
import { loadConfig } from '@lib/config';
import { addNagPacks } from '@lib/nag-packs';
import { ServiceStack } from '@lib/service-stack';
import { App, Validations } from 'aws-cdk-lib';
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
  readonly template: Template;
  /** Where the cloud assembly was written: the bundled functions are its `asset.<hash>` folders. */
  readonly assemblyDirectory: string;
  /** Every finding of the validation report; empty when the app is clean. */
  readonly findings: readonly Finding[];
  /**
   * The cdk-nag packs added to the app (`addNagPacks`). The report lists only plugins with findings, so
   * the canaries of context.test.ts are what show each pack really runs.
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
 * validation plugins) and synthesizes it once. Synthesis is told not to throw on findings so that
 * the tests can read the validation report and list every finding in their failure message.
 */
export const synthesize = (options: SynthesizeOptions = {}): Synthesized => {
  const app = new App({
    context: {
      ...cdkJsonContext,
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false,
      ...options.context,
    },
  });
  const nagPacks = addNagPacks(app);
  const stack = new ServiceStack(app, 'SecretsService', { config: loadConfig(app) });
  options.extend?.(stack);

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
    template: Template.fromStack(stack),
    assemblyDirectory: assembly.directory,
    findings,
    nagPacks,
    acknowledgements: acknowledgementsUnder(app),
  };
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
