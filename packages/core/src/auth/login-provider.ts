import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { BlitzError } from '../errors/blitz-error.js';
import { assertSecureDiscovery } from './secure-endpoints.js';
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

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.#opts.scopes;
    return {
      client_name: 'Blitz',
      redirect_uris: [this.#opts.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A native app cannot keep a secret: it registers as a public client and relies on PKCE.
      token_endpoint_auth_method: 'none',
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  /** The `state` this attempt sent; a redirect carrying another one is from another attempt. */
  get expectedState(): string {
    return this.#state;
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
