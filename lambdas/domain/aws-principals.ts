/*
 * The AWS principals a trust rule of kind `aws` names, and the one STS answers for a caller. A rule
 * names IAM roles (`arn:aws:iam::123456789012:role/ci`, or with a path, `role/team/ci`) and IAM users
 * (`arn:aws:iam::123456789012:user/alice`); STS names a caller by the credentials that signed:
 * an IAM user as its user ARN, a role session as `arn:aws:sts::ACCOUNT:assumed-role/NAME/SESSION`.
 *
 * An assumed-role ARN carries no path: STS drops it. A rule's role is matched by partition, account and
 * name, its path ignored; that loses nothing, as IAM role names are unique in an account whatever their
 * path. ARNs compare as STS writes them (IAM shows a name in the case it was created in).
 * The root user and federated users (`sts:GetFederationToken`) never match a rule.
 */

/** The partitions whose STS the service asks: commercial, China and GovCloud (US). */
export type AwsPartition = 'aws' | 'aws-cn' | 'aws-us-gov';

/** What an IAM or STS ARN names. */
export type AwsPrincipal =
  | {
      readonly kind: 'role';
      readonly partition: AwsPartition;
      readonly account: string;
      readonly path: string;
      readonly name: string;
    }
  | {
      readonly kind: 'user';
      readonly partition: AwsPartition;
      readonly account: string;
      readonly path: string;
      readonly name: string;
    }
  | {
      readonly kind: 'assumed-role';
      readonly partition: AwsPartition;
      readonly account: string;
      readonly name: string;
      readonly session: string;
    }
  | { readonly kind: 'root'; readonly partition: AwsPartition; readonly account: string }
  | {
      readonly kind: 'federated-user';
      readonly partition: AwsPartition;
      readonly account: string;
      readonly name: string;
    };

/** The longest ARN read: IAM's limit on a role or user ARN is 2048 characters. */
export const MAX_AWS_ARN_LENGTH = 2048;

/** An IAM name of a role or user (64 characters at most; letters, digits and `+=,.@_-`). */
const NAME = '[\\w+=,.@-]{1,64}';
/** An IAM path between the resource type and the name: `/` alone, or `/segment/.../` (here without the outer slashes). */
const PATH = '(?:[\\x21-\\x7e]{1,510}/)?';
/** A role session name (2 to 64 characters, as `sts:AssumeRole` allows). */
const SESSION = '[\\w+=,.@-]{2,64}';

const ARN = /^arn:(aws|aws-cn|aws-us-gov):(iam|sts)::(\d{12}):(.+)$/;
const IAM_RESOURCE = new RegExp(`^(role|user)/(${PATH})(${NAME})$`);
const ASSUMED_ROLE = new RegExp(`^assumed-role/(${NAME})/(${SESSION})$`);
const FEDERATED_USER = new RegExp(`^federated-user/(${NAME})$`);

/** What `arn` names, or `undefined` when it is no IAM role, user or root ARN, nor an STS caller ARN. */
export const parseAwsArn = (arn: string): AwsPrincipal | undefined => {
  if (arn.length > MAX_AWS_ARN_LENGTH) return undefined;
  const match = ARN.exec(arn);
  if (!match) return undefined;
  const [, partition, service, account, resource] = match as unknown as [string, AwsPartition, string, string, string];
  if (service === 'iam') {
    if (resource === 'root') return { kind: 'root', partition, account };
    const iam = IAM_RESOURCE.exec(resource);
    if (!iam) return undefined;
    const [, kind, path, name] = iam as unknown as [string, 'role' | 'user', string, string];
    // `//` in a path is no IAM path.
    if (path.includes('//') || path.startsWith('/')) return undefined;
    return { kind, partition, account, path: `/${path}`, name };
  }
  const assumed = ASSUMED_ROLE.exec(resource);
  if (assumed) return { kind: 'assumed-role', partition, account, name: assumed[1] ?? '', session: assumed[2] ?? '' };
  const federated = FEDERATED_USER.exec(resource);
  if (federated) return { kind: 'federated-user', partition, account, name: federated[1] ?? '' };
  return undefined;
};

/** Whether `arn` may stand in a rule: an IAM role or IAM user ARN. */
export const isRulePrincipalArn = (arn: string): boolean => {
  const principal = parseAwsArn(arn);
  return principal?.kind === 'role' || principal?.kind === 'user';
};

/**
 * The principal a caller ARN stands for: a role session's role (`arn:aws:sts::A:assumed-role/N/S` →
 * `arn:aws:iam::A:role/N`, the path STS dropped left out), anything else unchanged (a user stays its user).
 */
export const callerRoleArn = (arn: string): string => {
  const principal = parseAwsArn(arn);
  if (principal?.kind !== 'assumed-role') return arn;
  return `arn:${principal.partition}:iam::${principal.account}:role/${principal.name}`;
};

/**
 * The first of `ruleArns` that admits `callerArn` (as STS answered it), or `undefined`. A role session
 * matches a rule's role of the same partition, account and name, whatever the rule's path; an IAM user
 * matches its own ARN exactly (path included, as STS answers it with its path); nothing else matches.
 */
export const matchingPrincipal = (ruleArns: readonly string[], callerArn: string): string | undefined => {
  const caller = parseAwsArn(callerArn);
  if (caller?.kind === 'user') {
    return ruleArns.find((rule) => rule === callerArn && parseAwsArn(rule)?.kind === 'user');
  }
  if (caller?.kind !== 'assumed-role') return undefined;
  return ruleArns.find((rule) => {
    const role = parseAwsArn(rule);
    return (
      role?.kind === 'role' &&
      role.partition === caller.partition &&
      role.account === caller.account &&
      role.name === caller.name
    );
  });
};

/** Whether one of `ruleArns` admits `callerArn`; see `matchingPrincipal`. */
export const principalMatches = (ruleArns: readonly string[], callerArn: string): boolean =>
  matchingPrincipal(ruleArns, callerArn) !== undefined;
