import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { ExpectedRedirect } from './redirect-params.js';
import { assertMatchingIssuer, assertSecureDiscovery } from './secure-endpoints.js';
import type { ClientSource, StoredCredentials } from './stored-credentials.js';

export interface LoginProviderOptions {
  server: string;
  /** `http://127.0.0.1:<port>/callback` */
  redirectUrl: string;
  scopes?: readonly string[];
  /** `oauth.client_id` (and its secret from the environment): used instead of dynamic registration. */
  preRegistered?: { client_id: string; client_secret?: string };
  /** `oauth.authorization_server`: used instead of the one the server's metadata names. */
  authorizationServer?: string;
  /** `oauth.client_metadata_url` (or `[oauth]`'s): the client ID where the authorization server takes metadata documents. */
  clientMetadataUrl?: string;
  now(): number;
}

/**
 * Blitz as an OAuth client, as its client ID metadata document (docs/oauth/client-metadata.json)
 * and dynamic registration describe it: a native app on the loopback redirect (any port, RFC 8252),
 * a public client relying on PKCE, since a native app cannot keep a secret.
 */
export const BLITZ_CLIENT_METADATA: Readonly<Omit<OAuthClientMetadata, 'redirect_uris'> & { application_type: 'native' }> = {
  client_name: 'Blitz',
  application_type: 'native',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};

/**
 * The SDK's side of one sign-in: everything lives in memory until the flow succeeds, so
 * an abandoned or failed sign-in leaves the stored one untouched. The SDK does discovery,
 * registration, PKCE S256 and the code exchange through it.
 */
export class LoginProvider implements OAuthClientProvider {
  readonly #opts: LoginProviderOptions;
  readonly #state = randomBytes(32).toString('base64url');
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #obtainedAt = 0;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #authorizationUrl: URL | undefined;

  constructor(opts: LoginProviderOptions) {
    this.#opts = opts;
  }

  get redirectUrl(): string {
    return this.#opts.redirectUrl;
  }

  /**
   * The SDK uses it as the client ID when the authorization server advertises
   * `client_id_metadata_document_supported` and no client is known; otherwise it registers.
   * A pre-registered client comes first (the spec's order), so none is offered then.
   */
  get clientMetadataUrl(): string | undefined {
    return this.#opts.preRegistered ? undefined : this.#opts.clientMetadataUrl;
  }

  /** How the client of this sign-in came to be, once the SDK has one. */
  get clientSource(): ClientSource | undefined {
    const client = this.clientInformation();
    if (!client) return undefined;
    if (this.#opts.preRegistered) return 'preRegistered';
    return client.client_id === this.clientMetadataUrl ? 'metadataDocument' : 'dynamicRegistration';
  }

  /** What dynamic registration sends: the fields of Blitz's client ID metadata document, for this attempt's redirect URI. */
  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.#opts.scopes;
    // application_type (OpenID registration, SEP-837) is not in the SDK's type; the SDK sends the object as it is.
    return {
      ...BLITZ_CLIENT_METADATA,
      redirect_uris: [this.#opts.redirectUrl],
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  /**
   * What the redirect must carry: this attempt's `state`, and (RFC 9207) the issuer discovery
   * recorded for the authorization server the user was sent to. Known once the SDK has built
   * the authorization URL.
   */
  get expectedRedirect(): ExpectedRedirect {
    const discovery = this.#discovery;
    if (!discovery) throw new BlitzError('INTERNAL', 'no discovery: the authorization was not started');
    const metadata = discovery.authorizationServerMetadata;
    return {
      state: this.#state,
      issuer: metadata?.issuer ?? discovery.authorizationServerUrl,
      // RFC 9207's metadata field is not in the SDK's type; its schema keeps unknown fields.
      issRequired: (metadata as Record<string, unknown> | undefined)?.['authorization_response_iss_parameter_supported'] === true,
    };
  }

  /** Set once the SDK has built it. */
  get authorizationUrl(): URL | undefined {
    return this.#authorizationUrl;
  }

  state(): string {
    return this.#state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client ?? this.#opts.preRegistered;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.#client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
    this.#obtainedAt = this.#opts.now();
  }

  redirectToAuthorization(url: URL): void {
    this.#authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new BlitzError('INTERNAL', 'no PKCE verifier: the authorization was not started');
    return this.#verifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    if (this.#discovery) return this.#discovery;
    const override = this.#opts.authorizationServer;
    return override === undefined ? undefined : { authorizationServerUrl: override };
  }

  /** Called after discovery and before any registration or token request: the place to refuse insecure endpoints. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    assertSecureDiscovery(this.#opts.server, state);
    assertMatchingIssuer(this.#opts.server, state);
    this.#discovery = state;
  }

  /** The SDK calls this when the authorization server rejects the client (`all`) or a grant (`tokens`). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    switch (scope) {
      case 'all':
        this.#client = undefined;
        this.#tokens = undefined;
        this.#verifier = undefined;
        this.#discovery = undefined;
        return;
      case 'client':
        this.#client = undefined;
        return;
      case 'tokens':
        this.#tokens = undefined;
        return;
      case 'verifier':
        this.#verifier = undefined;
        return;
      case 'discovery':
        this.#discovery = undefined;
        return;
      default: {
        const _exhaustive: never = scope;
        return _exhaustive;
      }
    }
  }

  /** What to keep once the code is exchanged. A pre-registered client's secret stays in the environment. */
  credentials(serverUrl: string): StoredCredentials {
    const tokens = this.#tokens;
    const client = this.clientInformation();
    const discovery = this.#discovery;
    if (!tokens || !client || !discovery)
      throw new BlitzError('INTERNAL', `sign-in to MCP server ${this.#opts.server} finished without tokens`);
    const kept: OAuthClientInformationMixed = { ...client };
    if (this.#opts.preRegistered) delete kept.client_secret;
    const resource = discovery.resourceMetadata?.resource;
    const source = this.clientSource;
    return {
      version: 1,
      server: this.#opts.server,
      serverUrl,
      authorizationServerUrl: discovery.authorizationServerUrl,
      ...(discovery.authorizationServerMetadata ? { authorizationServerMetadata: discovery.authorizationServerMetadata } : {}),
      ...(resource === undefined ? {} : { resource }),
      client: kept,
      ...(source ? { clientSource: source } : {}),
      tokens,
      obtainedAt: this.#obtainedAt,
      ...(tokens.expires_in === undefined ? {} : { expiresAt: this.#obtainedAt + tokens.expires_in * 1000 }),
    };
  }
}
