import { Duration, Fn, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnManagedLoginBranding,
  ClientAttributes,
  FeaturePlan,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';

/** Properties of the {@link UserDirectory}: how it lets the dashboard sign its users in. */
export interface UserDirectoryProps {
  /** The dashboard's address, `https://<host>/`: the app client's only callback and sign-out URL. */
  readonly dashboardUrl: string;
  /** Prefix of the sign-in domain. Default: {@link defaultDomainPrefix}. */
  readonly domainPrefix?: string;
}

/** Words Cognito refuses in a prefix domain. */
const RESERVED_PREFIX_WORDS = /aws|amazon|cognito/g;

/**
 * A sign-in domain prefix no other stack has: the stack's name in lowercase (without the words Cognito
 * refuses) and the last group of the stack id's UUID, 12 hexadecimal digits known at deploy time, e.g.
 * `secretsservice-1a2b3c4d5e6f`.
 */
export const defaultDomainPrefix = (stack: Stack): string => {
  let name = Token.isUnresolved(stack.stackName) ? '' : stack.stackName.toLowerCase();
  // Removing one word may join the letters around it into another.
  for (let previous = ''; previous !== name; ) {
    previous = name;
    name = name.replace(RESERVED_PREFIX_WORDS, '');
  }
  name = name
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 50)
    .replace(/^-+|-+$/g, '');
  const stackUuid = Fn.select(2, Fn.split('/', stack.stackId));
  return `${name || 'dashboard'}-${Fn.select(4, Fn.split('-', stackUuid))}`;
};

/**
 * The dashboard's users, when the stack is its own session issuer: a Cognito user pool with its sign-in
 * domain (managed login), the dashboard's app client and the branding managed login shows. Stateful: the
 * pool is retained and deletion-protected, so no code change or stack delete can take the users with it.
 */
export class UserDirectory extends UserPool {
  /** The dashboard's app client (public, no secret, authorization code grant). */
  readonly client: UserPoolClient;
  /** The sign-in domain, `https://<prefix>.auth.<region>.amazoncognito.com`, serving managed login. */
  readonly domain: UserPoolDomain;
  /** The sign-in domain's URL, `https://<prefix>.auth.<region>.amazoncognito.com` (no trailing slash). */
  readonly domainUrl: string;
  /** `iss` of the pool's tokens: `https://cognito-idp.<region>.amazonaws.com/<poolId>`. */
  readonly issuer: string;
  /** The issuer's origin, `https://cognito-idp.<region>.amazonaws.com`, which serves discovery and the keys. */
  readonly issuerOrigin: string;

  constructor(scope: Construct, id: string, props: UserDirectoryProps) {
    super(scope, id, {
      // Dashboard users are invited by an administrator.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      // Memberships are found by e-mail: a changed address stays unused until it is verified.
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is optional with TOTP so that an administrator can invite users before they enrol a device; required MFA is a later decision per deployment.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus feature plan (threat protection) is billed per monthly active user; Essentials is the default for this service and can be raised per deployment.',
      },
    );

    // Managed login: Cognito's own sign-in pages (NEWER_MANAGED_LOGIN; the classic hosted UI is the default).
    this.domain = this.addDomain('SignInDomain', {
      cognitoDomain: { domainPrefix: props.domainPrefix ?? defaultDomainPrefix(Stack.of(this)) },
      managedLoginVersion: ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });

    this.client = this.addClient('DashboardClient', {
      // A browser dashboard cannot keep a secret; it proves its code exchange with PKCE instead.
      generateSecret: false,
      // SRP stays, and is the only password flow. Managed login offers an app client's users the sign-in
      // methods its flows allow (Cognito Developer Guide, "Configure authentication methods for managed
      // login"), so without a password flow its page could not take a password. SRP is the one whose
      // password never reaches Cognito, and it grants nothing the sign-in page does not: same user, same
      // password, same MFA. Refresh tokens are allowed too (CDK adds ALLOW_REFRESH_TOKEN_AUTH).
      authFlows: { userSrp: true, userPassword: false, adminUserPassword: false, custom: false, user: false },
      oAuth: {
        // The code grant only: no implicit grant (tokens in the URL) and no client credentials (no user).
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [props.dashboardUrl],
        logoutUrls: [props.dashboardUrl],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      // Cognito issues a refresh token with every code exchange and none can be turned off; the
      // dashboard never uses it (it signs in again) and keeps none, so it lives the shortest time
      // Cognito allows (60 minutes) rather than its default 30 days.
      refreshTokenValidity: Duration.minutes(60),
      // Users may change their display name, never their e-mail, through the dashboard.
      writeAttributes: new ClientAttributes().withStandardAttributes({ fullname: true }),
    });

    // Managed login shows an app client no page until a branding style is assigned to it; Cognito's own
    // look will do. The style belongs to the domain's managed login, so it waits for the domain. It sits
    // beside the pool, in `scope`, at the construct path it had before this class: its logical ID derives
    // from that path, and a new one would replace it on the next deploy.
    const branding = new CfnManagedLoginBranding(scope, 'SignInBranding', {
      userPoolId: this.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });
    branding.node.addDependency(this.domain);

    const { region, urlSuffix } = Stack.of(this);
    this.issuerOrigin = `https://cognito-idp.${region}.${urlSuffix}`;
    this.issuer = `${this.issuerOrigin}/${this.userPoolId}`;
    this.domainUrl = this.domain.baseUrl();
  }
}
