import type { Clock } from '@blitz/clock';
import { BlitzError, matchesServerUrl, resolveServer, signIn, type CredentialStore, type ServerConfig } from '@blitz/core';
import type { SignedOut, SignInAttempt, SignInStarted, SignInStatus } from '@blitz/client';

export interface PageSignInsDeps {
  store(): Promise<CredentialStore>;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** `[oauth] client_metadata_url` in force. */
  clientMetadataUrl(): string | undefined;
  /** The sign-in changed: what `blitz mcp login` tells the daemon afterwards. */
  changed(server: string): Promise<unknown>;
  info(message: string, fields: { server: string }): void;
}

interface Attempt {
  state: SignInAttempt;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Sign-ins the settings page starts (issue 29.7): the flow of `blitz mcp login`, run by the
 * daemon, whose callback listener on 127.0.0.1 the user's browser is redirected to. The page
 * opens the authorization URL and reads the outcome; a second start while one waits joins it.
 */
export class PageSignIns {
  readonly #deps: PageSignInsDeps;
  readonly #attempts = new Map<string, Attempt>();

  constructor(deps: PageSignInsDeps) {
    this.#deps = deps;
  }

  async status(server: ServerConfig): Promise<SignInStatus> {
    const attempt = this.#attempts.get(server.name)?.state;
    return { server: server.name, signedIn: await this.#signedIn(server), ...(attempt ? { attempt } : {}) };
  }

  /** Starts the sign-in and answers once the authorization URL is made (discovery and registration done). */
  async start(server: ServerConfig): Promise<SignInStarted> {
    const name = server.name;
    if (server.transport.kind !== 'http')
      throw new BlitzError('FAILED_PRECONDITION', `MCP server ${name} is a stdio server; only HTTP servers sign in`, {
        reason: 'NOT_AN_HTTP_SERVER',
      });
    const waiting = this.#attempts.get(name)?.state;
    if (waiting?.state === 'waiting') return { server: name, authorizationUrl: waiting.authorizationUrl };
    // A disabled server may be signed in to ahead of enabling it, as with the CLI.
    const resolved = resolveServer({ ...server, disabled: false }, this.#deps.env);
    if (resolved.unavailable) throw new BlitzError('FAILED_PRECONDITION', `MCP server ${name} cannot sign in: ${resolved.unavailable}`);

    const store = await this.#deps.store();
    const abort = new AbortController();
    let announce!: (url: string) => void;
    const url = new Promise<string>((resolve) => (announce = resolve));
    const metadataUrl = this.#deps.clientMetadataUrl();
    const flow = signIn({
      config: resolved.config,
      store,
      // The page shows what happens; the terminal's instructions (paste here…) are not the user's here.
      print: () => undefined,
      noBrowser: true,
      env: this.#deps.env,
      clock: this.#deps.clock,
      signal: abort.signal,
      onAuthorizationUrl: announce,
      ...(metadataUrl ? { clientMetadataUrl: metadataUrl } : {}),
    });
    const attempt: Attempt = {
      state: { state: 'waiting', authorizationUrl: '' },
      abort,
      done: flow
        .then(async () => {
          attempt.state = { state: 'signedIn' };
          this.#deps.info('signed in from the settings page', { server: name });
          await this.#deps.changed(name);
        })
        .catch((err: unknown) => {
          attempt.state = { state: 'failed', message: (err as Error).message };
        }),
    };
    // Failing before it has an address (discovery, registration), the sign-in is the answer's error.
    const first = await Promise.race([
      url,
      flow.then(
        () => undefined,
        (err: unknown) => err as Error,
      ),
    ]);
    if (first instanceof Error) throw first;
    if (first === undefined) throw new BlitzError('INTERNAL', `sign-in to MCP server ${name} ended before it gave an address`);
    attempt.state = { state: 'waiting', authorizationUrl: first };
    this.#attempts.get(name)?.abort.abort();
    this.#attempts.set(name, attempt);
    return { server: name, authorizationUrl: first };
  }

  async signOut(server: ServerConfig): Promise<SignedOut> {
    this.#attempts.get(server.name)?.abort.abort();
    this.#attempts.delete(server.name);
    const forgotten = await (await this.#deps.store()).forget(server.name);
    await this.#deps.changed(server.name);
    return { server: server.name, forgotten };
  }

  /** Ends every wait (the daemon stops): their listeners close. */
  async close(): Promise<void> {
    for (const attempt of this.#attempts.values()) attempt.abort.abort();
    await Promise.all([...this.#attempts.values()].map((a) => a.done));
  }

  async #signedIn(server: ServerConfig): Promise<boolean> {
    if (server.transport.kind !== 'http') return false;
    const creds = await (await this.#deps.store()).read(server.name).catch(() => undefined);
    return creds !== undefined && matchesServerUrl(creds, server.transport.url);
  }
}
