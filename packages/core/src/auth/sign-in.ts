import readline from 'node:readline';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { formatDelay, systemClock, type Clock } from '@blitz/clock';
import type { ServerConfig } from '../config/server-config.js';
import { urlProblem } from '../config/url-rules.js';
import { BlitzError, isBlitzError } from '../errors/blitz-error.js';
import { createProxyFetch } from '../connection/http/proxy-fetch.js';
import { startCallbackListener } from './callback-listener.js';
import type { CredentialStore } from './credential-store.js';
import { describeOAuthError } from './describe-oauth-error.js';
import { LoginProvider } from './login-provider.js';
import { probeChallenge } from './probe-challenge.js';
import { remoteSession, systemBrowserOpener, type BrowserOpener } from './open-browser.js';
import { judgeRedirect, parsePastedRedirect, type RedirectParams } from './redirect-params.js';
import { noRedirectFetch } from './secure-endpoints.js';
import { matchesServerUrl, scopeUnion, type StoredCredentials } from './stored-credentials.js';

/** How long a sign-in waits for the browser (or a pasted address) before giving up. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface SignInOptions {
  /** The server, its environment references expanded (`resolveServer`). */
  config: ServerConfig;
  store: CredentialStore;
  /** Instructions and the authorization URL, for the user (stderr). */
  print(text: string): void;
  noBrowser?: boolean;
  openBrowser?: BrowserOpener;
  /** Where a pasted address may come from (the terminal). */
  input?: NodeJS.ReadableStream;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  clock?: Clock;
  timeoutMs?: number;
  /** `[oauth] client_metadata_url`: used when the server's `oauth` table names none. */
  clientMetadataUrl?: string;
  /** The fetch under every OAuth request; by default undici's, through the environment's proxy. */
  fetch?: FetchLike;
  /** Told the authorization URL as soon as it is made (the settings page opens it in the user's browser). */
  onAuthorizationUrl?(url: string): void;
  /** Ends the wait for the browser (the daemon stopping, or the page signing in again). */
  signal?: AbortSignal;
}

/**
 * `blitz mcp login` (MCP-38): the authorization-code flow with PKCE S256 through the SDK
 * (discovery, dynamic registration or the pre-registered client, code exchange), the
 * redirect caught on 127.0.0.1 or pasted, and the result kept in the store. Nothing is
 * stored unless it succeeds.
 */
export async function signIn(opts: SignInOptions): Promise<StoredCredentials> {
  const { config } = opts;
  const name = config.name;
  if (config.transport.kind !== 'http') {
    throw new BlitzError('FAILED_PRECONDITION', `MCP server ${name} is a stdio server; only HTTP servers sign in`, {
      reason: 'NOT_AN_HTTP_SERVER',
    });
  }
  const serverUrl = config.transport.url;
  const problem = urlProblem(serverUrl);
  if (problem)
    throw new BlitzError('FAILED_PRECONDITION', `the url of MCP server ${name} ${problem}`, { reason: 'INSECURE_OAUTH_ENDPOINT' });
  const override = config.oauth?.authorizationServer;
  const overrideProblem = override === undefined ? undefined : urlProblem(override);
  if (overrideProblem)
    throw new BlitzError('FAILED_PRECONDITION', `oauth.authorization_server of MCP server ${name} ${overrideProblem}`, {
      reason: 'INSECURE_OAUTH_ENDPOINT',
    });
  const clock = opts.clock ?? systemClock;
  const timeoutMs = opts.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
  const proxy = opts.fetch ? undefined : createProxyFetch();
  const fetchFn = noRedirectFetch(opts.fetch ?? proxy!.fetch);

  let judge: (params: RedirectParams, from: 'browser' | 'pasted') => { ok: boolean; message: string } = () => ({
    ok: false,
    message: 'no sign-in is waiting for this address',
  });
  const listener = await startCallbackListener({
    ...(config.oauth?.callbackPort === undefined ? {} : { port: config.oauth.callbackPort }),
    onRedirect: (params) => judge(params, 'browser'),
  });
  let lines: readline.Interface | undefined;
  try {
    const oauth = config.oauth;
    const metadataUrl = oauth?.clientMetadataUrl ?? opts.clientMetadataUrl;
    const provider = new LoginProvider({
      server: name,
      redirectUrl: listener.redirectUrl,
      now: () => clock.now(),
      ...(oauth?.scopes ? { scopes: oauth.scopes } : {}),
      ...(oauth?.clientId
        ? { preRegistered: { client_id: oauth.clientId, ...(oauth.clientSecret ? { client_secret: oauth.clientSecret } : {}) } }
        : {}),
      ...(oauth?.authorizationServer ? { authorizationServer: oauth.authorizationServer } : {}),
      ...(metadataUrl ? { clientMetadataUrl: metadataUrl } : {}),
    });
    const challenge = await probeChallenge(name, serverUrl, config.transport.headers, fetchFn);
    // Scopes the user configured win over what the server's challenge names; with neither,
    // the SDK asks for the protected resource's scopes_supported.
    const leastScope = oauth?.scopes?.length ? oauth.scopes.join(' ') : challenge.scope;
    // Step-up: a tool call was refused for want of a scope; ask for it and keep what is held.
    const held = await heldSignIn(opts.store, name, serverUrl);
    const scope = held?.challengedScope ? scopeUnion(held.tokens.scope ?? leastScope, held.challengedScope) : leastScope;
    if (held?.challengedScope) opts.print(`MCP server ${name} asked for more access; asking for scope "${scope}".`);
    const authOptions = {
      serverUrl,
      fetchFn,
      ...(scope ? { scope } : {}),
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    };

    await runAuth(name, () => auth(provider, authOptions));
    const url = provider.authorizationUrl;
    if (!url) throw new BlitzError('INTERNAL', `sign-in to MCP server ${name} produced no authorization URL`);

    opts.onAuthorizationUrl?.(url.href);
    const remote = remoteSession(opts.env ?? process.env, opts.platform);
    opts.print(`Sign in to MCP server ${name} in a browser:\n\n  ${url.href}\n`);
    if (remote) {
      const why = remote === 'ssh' ? 'you are connected over SSH' : 'this machine has no display';
      opts.print(
        `A browser elsewhere cannot reach ${listener.redirectUrl} (${why}). After signing in, paste here the address ` +
          `the browser ends on (it starts with ${listener.redirectUrl}), or code#state, and press Enter.`,
      );
    } else if (!opts.noBrowser) {
      const opened = await (opts.openBrowser ?? systemBrowserOpener(opts.platform))(url.href);
      opts.print(
        opened
          ? 'Opened it in your browser; waiting for you to finish there…'
          : 'Could not start a browser: open the address above yourself.',
      );
    } else {
      opts.print('Open the address above in a browser; waiting for you to finish there…');
    }

    const code = await new Promise<string>((resolve, reject) => {
      const timer = clock.setTimeout(() => {
        reject(
          new BlitzError(
            'TIMEOUT',
            `sign-in to MCP server ${name} timed out: no answer from the browser within ${formatDelay(timeoutMs)}; run blitz mcp login ${name} again`,
          ),
        );
      }, timeoutMs);
      const onAbort = () =>
        finish(() => reject(new BlitzError('CANCELLED', `sign-in to MCP server ${name} was cancelled`, { reason: 'SIGN_IN_CANCELLED' })));
      const finish = (fn: () => void) => {
        timer.cancel();
        opts.signal?.removeEventListener('abort', onAbort);
        judge = () => ({ ok: false, message: 'this sign-in is already over' });
        fn();
      };
      judge = (params, from) => {
        const verdict = judgeRedirect(params, provider.expectedRedirect);
        switch (verdict.kind) {
          case 'code':
            finish(() => resolve(verdict.code));
            return { ok: true, message: `Blitz received the sign-in for MCP server ${name}. You can close this tab.` };
          case 'denied':
            finish(() =>
              reject(
                new BlitzError('PERMISSION_DENIED', `sign-in to MCP server ${name} was refused: ${verdict.message}`, {
                  reason: 'SIGN_IN_DENIED',
                }),
              ),
            );
            return { ok: false, message: verdict.message };
          case 'refused':
            opts.print(`Refused ${from === 'browser' ? 'a redirect' : 'the pasted address'}: ${verdict.message}.`);
            return { ok: false, message: verdict.message };
          case 'wrongIssuer':
            // A pasted code#state cannot carry iss: the whole address can.
            if (from === 'pasted' && verdict.missing) {
              opts.print(`Refused the pasted address: ${verdict.message}; paste the whole address the browser ended on.`);
              return { ok: false, message: verdict.message };
            }
            finish(() =>
              reject(
                new BlitzError('PERMISSION_DENIED', `sign-in to MCP server ${name} was refused: ${verdict.message}`, {
                  reason: 'WRONG_ISSUER',
                }),
              ),
            );
            return { ok: false, message: verdict.message };
          default: {
            const _exhaustive: never = verdict;
            return _exhaustive;
          }
        }
      };
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort);
      if (opts.input) {
        lines = readline.createInterface({ input: opts.input, terminal: false });
        lines.on('line', (line) => {
          if (line.trim() === '') return;
          const params = parsePastedRedirect(line);
          if (params) judge(params, 'pasted');
          else opts.print(`Refused the pasted text: it is neither the address the browser ended on nor code#state.`);
        });
      }
    });

    await runAuth(name, () => auth(provider, { ...authOptions, authorizationCode: code }));
    const credentials = provider.credentials(serverUrl);
    await opts.store.write(credentials);
    return credentials;
  } finally {
    lines?.close();
    await listener.close();
    await proxy?.close();
  }
}

/** The sign-in kept for this server's URL, if any; unreadable counts as none (the login replaces it). */
async function heldSignIn(store: CredentialStore, name: string, url: string): Promise<StoredCredentials | undefined> {
  const creds = await store.read(name).catch(() => undefined);
  return creds && matchesServerUrl(creds, url) ? creds : undefined;
}

async function runAuth(name: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (isBlitzError(err)) throw err;
    throw new BlitzError('FAILED_PRECONDITION', `sign-in to MCP server ${name} failed: ${describeOAuthError(err)}`, {
      reason: 'SIGN_IN_FAILED',
    });
  }
}
