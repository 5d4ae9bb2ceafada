import { refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Clock } from '@blitz/clock';
import type { ServerConfig } from '../config/server-config.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { CredentialStore } from './credential-store.js';
import { describeOAuthError, isRejectedGrant } from './describe-oauth-error.js';
import {
  isExpired,
  matchesServerUrl,
  needsRefresh,
  scopeUnion,
  secretsOf,
  withNewTokens,
  type StoredCredentials,
} from './stored-credentials.js';

export interface ServerSignInDeps {
  /** The store, opened (keychain probed) once and shared. */
  store(): Promise<CredentialStore>;
  clock: Clock;
  /** For token requests (already refusing redirects). */
  fetch: FetchLike;
  /** Every token read or received, so the redactor knows it before any log line could hold it. */
  onSecrets(values: string[]): void;
  /** The sign-in was dropped (refresh refused): for the log, without any secret. */
  onForgotten(server: string, why: string): void;
  warn(message: string): void;
}

/** What is known of the store's contents: `unknown` until read, and again after a reload. */
type Cached = { kind: 'unknown' } | { kind: 'none' } | { kind: 'some'; creds: StoredCredentials };

/**
 * One server's sign-in as the daemon uses it: the Authorization header for each request,
 * refreshed ahead of expiry and after a 401, one refresh at a time (callers join the one in
 * flight), new tokens saved, a refused refresh forgotten. The store is the truth shared with
 * the CLI and other processes: it is read again at every connect, before every refresh, and
 * after every 401.
 */
export class ServerSignIn {
  readonly #config: ServerConfig;
  readonly #deps: ServerSignInDeps;
  #cached: Cached = { kind: 'unknown' };
  #refreshing: Promise<StoredCredentials | undefined> | undefined;
  /** Bumped by `invalidate` (login, logout): a refresh begun before must not write back. */
  #generation = 0;

  constructor(config: ServerConfig, deps: ServerSignInDeps) {
    this.#config = config;
    this.#deps = deps;
  }

  get name(): string {
    return this.#config.name;
  }

  /** Forget what is cached; the next request reads the store. */
  reload(): void {
    this.#cached = { kind: 'unknown' };
  }

  /** The sign-in changed elsewhere (login, logout): drop the cache, and let no refresh in flight write back. */
  invalidate(): void {
    this.#generation++;
    this.#cached = { kind: 'unknown' };
  }

  /** `Bearer <token>` for the next request, refreshed first when due; undefined when not signed in. */
  async authorization(): Promise<string | undefined> {
    const creds = await this.#current();
    if (!creds) return undefined;
    const now = this.#deps.clock.now();
    if (!needsRefresh(creds, now) || !creds.tokens.refresh_token) return header(creds);
    try {
      const refreshed = await this.#refresh(creds.tokens.access_token);
      return refreshed ? header(refreshed) : undefined;
    } catch (err) {
      // The server may still take the token it has: try it rather than fail the request.
      if (isExpired(creds, now)) throw err;
      this.#deps.warn((err as Error).message);
      return header(creds);
    }
  }

  /**
   * The server answered 401 to `sent`. Returns the header to retry with: a token someone
   * else saved meanwhile (another connection, a refresh in another process, a new login),
   * or a refreshed one; undefined when only a new sign-in can help.
   */
  async rejected(sent: string | undefined): Promise<string | undefined> {
    this.reload();
    const creds = await this.#current();
    if (!creds) return undefined;
    if (header(creds) !== sent) return header(creds);
    if (!creds.tokens.refresh_token) {
      await this.#forget(creds, 'the server refused its token and there is no refresh token');
      return undefined;
    }
    const refreshed = await this.#refresh(creds.tokens.access_token);
    return refreshed ? header(refreshed) : undefined;
  }

  /**
   * The server refused the token for want of `scope`: kept with the sign-in (the store is
   * shared with the CLI) so `blitz mcp login` asks for it together with what is held.
   */
  async insufficientScope(scope: string): Promise<void> {
    try {
      const store = await this.#deps.store();
      const creds = await store.read(this.name);
      if (!creds) return;
      const challengedScope = scopeUnion(creds.challengedScope, scope);
      if (challengedScope === creds.challengedScope) return;
      const next = { ...creds, challengedScope };
      await store.write(next);
      if (this.#cached.kind === 'some') this.#cached = { kind: 'some', creds: { ...this.#cached.creds, challengedScope } };
    } catch (err) {
      this.#deps.warn(`could not keep the scope MCP server ${this.name} asked for: ${(err as Error).message}`);
    }
  }

  async #current(): Promise<StoredCredentials | undefined> {
    if (this.#cached.kind === 'unknown') {
      const generation = this.#generation;
      const creds = await this.#read();
      // A refresh that finished while we read is newer than what we read; a sign-out during
      // the read (a new generation) makes what we read stale.
      if (this.#cached.kind === 'unknown' && generation === this.#generation)
        this.#cached = creds ? { kind: 'some', creds } : { kind: 'none' };
      else if (generation !== this.#generation) return undefined;
    }
    return this.#cached.kind === 'some' ? this.#cached.creds : undefined;
  }

  /** The stored sign-in if it was made for this server's URL: tokens never go to a URL they were not issued for. */
  async #read(): Promise<StoredCredentials | undefined> {
    let creds: StoredCredentials | undefined;
    try {
      creds = await (await this.#deps.store()).read(this.name);
    } catch (err) {
      throw new BlitzError('SERVER_UNAVAILABLE', `cannot read the sign-in of MCP server ${this.name}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (!creds || this.#config.transport.kind !== 'http' || !matchesServerUrl(creds, this.#config.transport.url)) return undefined;
    this.#deps.onSecrets(secretsOf(creds));
    return creds;
  }

  /** One refresh at a time: a caller while one runs gets its result. */
  #refresh(basedOn: string): Promise<StoredCredentials | undefined> {
    this.#refreshing ??= this.#doRefresh(basedOn).finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  async #doRefresh(basedOn: string): Promise<StoredCredentials | undefined> {
    const generation = this.#generation;
    const latest = await this.#read();
    const now = this.#deps.clock.now();
    if (!latest) return this.#settle(undefined);
    // Someone else (another process) refreshed since we looked: use theirs.
    if (latest.tokens.access_token !== basedOn && !needsRefresh(latest, now)) return this.#settle(latest);
    const refreshToken = latest.tokens.refresh_token;
    if (!refreshToken) return this.#settle(latest);
    let next: StoredCredentials;
    try {
      const tokens = await refreshAuthorization(latest.authorizationServerUrl, {
        ...(latest.authorizationServerMetadata ? { metadata: latest.authorizationServerMetadata } : {}),
        clientInformation: this.#client(latest),
        refreshToken,
        ...(latest.resource === undefined ? {} : { resource: latest.resource }),
        fetchFn: this.#deps.fetch,
      });
      next = withNewTokens(latest, tokens, this.#deps.clock.now());
    } catch (err) {
      if (!isRejectedGrant(err)) {
        throw new BlitzError('SERVER_UNAVAILABLE', `refreshing the sign-in of MCP server ${this.name} failed: ${describeOAuthError(err)}`);
      }
      const again = await this.#read();
      // Rotated by another process while ours was on its way: theirs is good.
      if (again && again.tokens.refresh_token !== refreshToken) return this.#settle(again);
      await this.#forget(latest, `the authorization server refused the refresh: ${describeOAuthError(err)}`);
      return undefined;
    }
    this.#deps.onSecrets(secretsOf(next));
    // Signed out or in again while the refresh was on its way (here or in another process):
    // what is stored now wins, so a stale refresh never brings back a forgotten sign-in.
    let now2: StoredCredentials | undefined;
    let unreadable = false;
    try {
      now2 = await this.#read();
    } catch {
      // Unreadable just now: the old refresh token is spent already, so keep the new ones.
      unreadable = true;
    }
    if (generation !== this.#generation) return this.#settle(unreadable ? undefined : now2);
    if (!unreadable && now2?.tokens.refresh_token !== refreshToken) return this.#settle(now2);
    this.#cached = { kind: 'some', creds: next };
    try {
      await (await this.#deps.store()).write(next);
    } catch (err) {
      this.#deps.warn(`could not save the refreshed sign-in of MCP server ${this.name}: ${(err as Error).message}`);
    }
    return next;
  }

  #settle(creds: StoredCredentials | undefined): StoredCredentials | undefined {
    this.#cached = creds ? { kind: 'some', creds } : { kind: 'none' };
    return creds;
  }

  async #forget(creds: StoredCredentials, why: string): Promise<void> {
    this.#cached = { kind: 'none' };
    try {
      const store = await this.#deps.store();
      const stored = await store.read(this.name);
      // Only the sign-in that failed: a newer one saved meanwhile stays.
      if (stored && stored.tokens.access_token === creds.tokens.access_token) await store.forget(this.name);
    } catch (err) {
      this.#deps.warn(`could not forget the sign-in of MCP server ${this.name}: ${(err as Error).message}`);
    }
    this.#deps.onForgotten(this.name, why);
  }

  /** A pre-registered client's secret comes from the settings' environment reference, never from the store. */
  #client(creds: StoredCredentials): OAuthClientInformationMixed {
    const oauth = this.#config.oauth;
    if (oauth?.clientId && oauth.clientId === creds.client.client_id && oauth.clientSecret)
      return { ...creds.client, client_secret: oauth.clientSecret };
    return creds.client;
  }
}

function header(creds: StoredCredentials): string {
  return `Bearer ${creds.tokens.access_token}`;
}
