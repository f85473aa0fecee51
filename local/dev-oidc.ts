import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JWK } from 'jose';
import type { Adapter, AdapterPayload, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { DEV_AUDIENCE, DEV_IDP_PATH, isDevEmail, normalizeDevEmail, SESSION_SECONDS, subjectFor } from './dev-idp';

/**
 * The development identity provider's OpenID Connect side, for the dashboard's sign-in: discovery,
 * the authorization endpoint with a page that asks only for an e-mail, the token endpoint (code flow
 * with PKCE, public client `local-dashboard`) and end-session. `oidc-provider` does the protocol; this
 * module only configures it and draws its pages. Its ID tokens are signed with the same key as
 * `POST /_dev/idp/token`'s sessions and carry the same claims, so both kinds of session are the same
 * person to the authorizer.
 */

/** Endpoints under the issuer; the token endpoint is not `/token`, which stays the scripts' JSON route. */
const ROUTES = {
  authorization: '/auth',
  token: '/oauth/token',
  jwks: '/.well-known/jwks.json',
  userinfo: '/userinfo',
  end_session: '/session/end',
} as const;

/** Where the sign-in page lives, under the issuer. */
const INTERACTION_PATH = '/interaction/';

/** What the development identity provider's OpenID side needs. */
export interface DevOidcOptions {
  /** `{base}/_dev/idp`. */
  readonly issuer: string;
  /** The signing key (private JWK with `kid`) the provider's other sessions are signed with. */
  readonly signingJwk: JWK;
  /** Where the dashboard may be sent back to after sign-in and sign-out: its URL under each loopback name. */
  readonly dashboardUrls: readonly string[];
}

/** Answers one request under the issuer's path that is not the JSON token route or the JWKS; reads its own body. */
export type DevOidcHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The sign-in form is a few hundred bytes; anything longer is not one. */
const MAX_FORM_BYTES = 4096;

const readForm = async (req: IncomingMessage): Promise<URLSearchParams> => {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (text.length < MAX_FORM_BYTES) text += chunk.toString('utf8');
  }
  return new URLSearchParams(text.slice(0, MAX_FORM_BYTES));
};

/**
 * Keeps the provider's sessions, codes and grants in memory, as its built-in adapter would; this one
 * says nothing, where the built-in one warns on every start that it is for development only (as is
 * all of this provider).
 */
class MemoryAdapter implements Adapter {
  private static readonly store = new Map<string, { payload: AdapterPayload; expiresAt: number }>();

  constructor(private readonly model: string) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    MemoryAdapter.store.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const entry = MemoryAdapter.store.get(this.key(id));
    if (entry && entry.expiresAt > Date.now()) return entry.payload;
    MemoryAdapter.store.delete(this.key(id));
    return undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    for (const [key, entry] of MemoryAdapter.store) {
      if (key.startsWith(`${this.model}:`) && entry.payload.uid === uid)
        return this.find(key.slice(this.model.length + 1));
    }
    return undefined;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const entry = MemoryAdapter.store.get(this.key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    MemoryAdapter.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, entry] of MemoryAdapter.store)
      if (entry.payload.grantId === grantId) MemoryAdapter.store.delete(key);
  }
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const PAGE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f5f6f8;color:#1b1f24}' +
  'main{max-width:22rem;margin:0 auto;background:#fff;padding:1.5rem;border-radius:8px;border:1px solid #d0d7de}' +
  'h1{font-size:1.25rem;margin:0 0 .5rem}label{display:block;font-weight:600;margin:1rem 0 .25rem}' +
  'input{box-sizing:border-box;width:100%;padding:.5rem;font:inherit;border:1px solid #8c959f;border-radius:6px}' +
  'button{margin-top:1rem;width:100%;padding:.6rem;font:inherit;font-weight:600;color:#fff;background:#0b57d0;border:0;border-radius:6px;cursor:pointer}' +
  '.error{color:#a40e26;margin:.5rem 0 0}.note{color:#57606a;font-size:.875rem}';

/** A small self-contained page: no font, script or style from anywhere else. */
const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">` +
  `<title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body><main>${body}</main></body></html>`;

const signInPage = (action: string, email = '', error?: string): string =>
  page(
    'Sign in: development identity provider',
    `<h1>Sign in</h1><p class="note">Development identity provider: any e-mail signs in, no password. Never deployed.</p>` +
      `<form method="post" action="${escapeHtml(action)}" novalidate>` +
      `<label for="email">E-mail</label>` +
      `<input id="email" name="email" type="email" autocomplete="email" required autofocus value="${escapeHtml(email)}"` +
      `${error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>` +
      `${error ? `<p id="email-error" class="error">${escapeHtml(error)}</p>` : ''}` +
      `<button type="submit">Continue</button></form>`,
  );

const sendHtml = (res: ServerResponse, status: number, html: string): void => {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
  });
  res.end(html);
};

/**
 * Builds the provider; `oidc-provider` is an ES module with a large dependency tree, so it is loaded
 * here, on the first sign-in, rather than with the local service (which tests load in-process).
 */
export const createDevOidc = async (options: DevOidcOptions): Promise<DevOidcHandler> => {
  const { default: Provider } = await import('oidc-provider');
  const emails = new Map<string, string>();
  const dashboardOrigins = options.dashboardUrls.map((url) => new URL(url).origin);
  const configuration: Configuration = {
    adapter: MemoryAdapter,
    clients: [
      {
        client_id: DEV_AUDIENCE,
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [...options.dashboardUrls],
        post_logout_redirect_uris: [...options.dashboardUrls],
      },
    ],
    jwks: { keys: [options.signingJwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    routes: ROUTES,
    scopes: ['openid', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The API reads the e-mail from the ID token, as it does from Cognito's.
    conformIdTokenClaims: false,
    pkce: { required: () => true, methods: ['S256'] },
    responseTypes: ['code'],
    // The dashboard exchanges its code from the browser: its own origins only.
    clientBasedCORS: (_ctx, origin) => dashboardOrigins.includes(origin),
    ttl: {
      IdToken: SESSION_SECONDS,
      AccessToken: SESSION_SECONDS,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: SESSION_SECONDS,
      Grant: SESSION_SECONDS,
    },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true, logoutSource } },
    interactions: { url: (_ctx, interaction) => `${DEV_IDP_PATH}${INTERACTION_PATH}${interaction.uid}` },
    // The only client is the dashboard, so what it asks for (an e-mail) is granted without a consent page.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    findAccount: (_ctx, sub) => {
      const email = emails.get(sub);
      return email ? { accountId: sub, claims: () => ({ sub, email, email_verified: true }) } : undefined;
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      const details = Object.entries(out)
        .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`)
        .join('');
      ctx.body = page('Sign-in failed', `<h1>Sign-in failed</h1>${details}`);
    },
  };
  const provider = new Provider(options.issuer, configuration);
  const callback = provider.callback();
  const issuerPath = new URL(options.issuer).pathname;

  const interaction = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const details = await provider.interactionDetails(req, res).catch(() => undefined);
    if (!details)
      return sendHtml(res, 400, page('Sign-in expired', '<h1>Sign-in expired</h1><p>Go back and sign in again.</p>'));
    const action = `${DEV_IDP_PATH}${INTERACTION_PATH}${details.uid}`;
    if (req.method !== 'POST') return sendHtml(res, 200, signInPage(action));
    const typed = (await readForm(req)).get('email') ?? '';
    if (!isDevEmail(typed))
      return sendHtml(res, 400, signInPage(action, typed, 'Enter an e-mail address, like you@example.com.'));
    const email = normalizeDevEmail(typed);
    const accountId = subjectFor(email);
    emails.set(accountId, email);
    const returnTo = await provider.interactionResult(req, res, { login: { accountId } });
    res.writeHead(303, { Location: returnTo, 'Content-Length': 0 });
    res.end();
  };

  return async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    if (path.startsWith(`${DEV_IDP_PATH}${INTERACTION_PATH}`)) return interaction(req, res);
    // Mounted under the issuer's path: oidc-provider finds the mount point from `originalUrl`.
    const url = req.url ?? '/';
    callback(Object.assign(req, { originalUrl: url, url: url.slice(issuerPath.length) || '/' }), res);
  };
};

/** Signs out without a confirmation page: only the dashboard can ask, and it asked because the person clicked. */
function logoutSource(ctx: KoaContextWithOIDC, form: string): void {
  ctx.body = page(
    'Signing out',
    `<h1>Signing out…</h1>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>` +
      `<script>document.getElementById('op.logoutForm').requestSubmit(document.querySelector('button[name=logout]'))</script>`,
  );
}
