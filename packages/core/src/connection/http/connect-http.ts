import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type ClientCapabilities, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { systemClock, type Clock } from '@blitz/clock';
import type { ServerConfig } from '../../config/server-config.js';
import { BlitzError } from '../../errors/blitz-error.js';
import { withDeadline } from '../deadline.js';
import { untilAborted } from '../until-aborted.js';
import type { Link } from '../link.js';
import { connectFailure, initializeTimeout } from './http-failure.js';
import { createProxyFetch, type ProxyFetch } from './proxy-fetch.js';
import { limitResponseBytes } from './limit-response.js';
import { RelatedRequests } from './related-requests.js';
import { retryingFetch, type RetryEvent } from './retrying-fetch.js';
import { LazySchemaValidator } from '../lazy-schema-validator.js';
import { ModernServerTransport, type Era, type EraVerdict } from '../../eras/modern-server-transport.js';
import { ToolParamHeaders } from '../../eras/param-headers.js';
import { modernHeaders } from './modern-headers.js';

/** How long `close()` waits for the server to acknowledge the session DELETE before dropping it. */
export const DELETE_TIMEOUT_MS = 2_000;

export interface HttpConnectOptions {
  /** initialize (retries included) must finish within this many ms. */
  deadlineMs: number;
  capabilities: ClientCapabilities;
  /** Registers handlers on the client before the handshake, so no early message is missed. */
  prepareClient?(client: Client): void;
  /** Aborting it gives up the handshake with `CANCELLED`. */
  signal?: AbortSignal;
  /** Sent as `clientInfo.version`. */
  clientVersion?: string;
  clock?: Clock;
  /** Passed through to the SDK, which runs OAuth with it on a 401. */
  authProvider?: OAuthClientProvider;
  /** The fetch under the retries; by default undici's, through the proxy the environment names. */
  fetch?: FetchLike;
  /** Wraps the fetch under the retries, e.g. to add a signed-in server's token to every attempt. */
  wrapFetch?(base: FetchLike): FetchLike;
  /** Caps each JSON answer at this many bytes (`[hub] max_result_mb`). */
  maxMessageBytes?: () => number;
  /** Transport errors that fail no request (e.g. the SSE stream dropping), for the log. */
  onError?(err: Error): void;
  onRetry?(event: RetryEvent): void;
  /** The era the server was last found to speak: `legacy` skips asking it (`server/discover`). */
  era?: Era;
  onVerdict?(verdict: EraVerdict): void;
}

/** A `Link` over streamable HTTP. */
export interface HttpLink extends Link {
  /** The `Mcp-Session-Id` the server issued, if it keeps sessions. */
  readonly sessionId: string | undefined;
}

/**
 * Opens an initialized MCP session with a streamable-HTTP server. Only the handshake is
 * bounded here; later requests carry their own timeouts.
 */
export async function connectHttp(config: ServerConfig, opts: HttpConnectOptions): Promise<HttpLink> {
  const { transport: target, name } = config;
  if (target.kind !== 'http') throw new BlitzError('INTERNAL', `MCP server ${name} is not an HTTP server`);
  let url: URL;
  try {
    url = new URL(target.url);
  } catch (err) {
    throw new BlitzError('INVALID_ARGUMENT', `MCP server ${name} has an invalid url`, { cause: err });
  }
  const clock = opts.clock ?? systemClock;
  let baseFetch = opts.fetch;
  let proxy: ProxyFetch | undefined;
  if (!baseFetch) {
    proxy = createProxyFetch();
    baseFetch = proxy.fetch;
  }
  const limited = (fetch: FetchLike) => (opts.maxMessageBytes ? limitResponseBytes(fetch, name, opts.maxMessageBytes) : fetch);
  const related = new RelatedRequests();
  const paramHeaders = new ToolParamHeaders();
  const transport = new RelatingTransport(related, url, {
    requestInit: { headers: target.headers },
    fetch: related.fetch(
      limited(
        modernHeaders(
          retryingFetch(opts.wrapFetch ? opts.wrapFetch(baseFetch) : baseFetch, {
            clock,
            ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
          }),
          {
            params: paramHeaders,
            speaksModern: (): boolean => modern !== undefined && modern.verdict?.era !== 'legacy',
            onListenEnded: (id) => modern?.streamEnded(id),
          },
        ),
      ),
    ),
    ...(opts.authProvider ? { authProvider: opts.authProvider } : {}),
  });
  const client = new Client(
    { name: 'blitz', version: opts.clientVersion ?? '0.0.0' },
    { capabilities: opts.capabilities, jsonSchemaValidator: new LazySchemaValidator() },
  );
  opts.prepareClient?.(client);
  // Asked first which era it speaks; its `initialize` follows only if it does not say 2026-07-28.
  const modern: ModernServerTransport | undefined =
    opts.era === 'legacy'
      ? undefined
      : new ModernServerTransport(transport, { paramHeaders, clock, ...(opts.onVerdict ? { onVerdict: opts.onVerdict } : {}) });

  let closedByUs = false;
  let settleLost!: (err: BlitzError) => void;
  const lost = new Promise<BlitzError>((resolve) => (settleLost = resolve));
  const previousOnClose = client.onclose;
  client.onclose = () => {
    previousOnClose?.();
    if (!closedByUs)
      settleLost(
        new BlitzError('SERVER_UNAVAILABLE', `MCP server ${name} closed the connection`, { serverCause: { code: 'CONNECTION_CLOSED' } }),
      );
  };
  const previousOnError = client.onerror;
  client.onerror = (err) => {
    previousOnError?.(err);
    opts.onError?.(err);
  };

  const release = async (): Promise<void> => {
    closedByUs = true;
    await client.close().catch(() => {});
    await proxy?.close();
  };

  try {
    await handshake(client, modern ?? transport, clock, opts, name);
  } catch (err) {
    await release();
    throw connectFailure(name, target.url, opts.deadlineMs, err);
  }

  let closing: Promise<void> | undefined;
  return {
    client,
    lost,
    get sessionId() {
      return transport.sessionId;
    },
    era: modern?.verdict?.era ?? 'legacy',
    relatedTo: (serverRequestId) => modern?.relatedTo(serverRequestId) ?? related.relatedTo(serverRequestId),
    close() {
      closing ??= (async () => {
        closedByUs = true;
        // A server that forgot us (404) or hangs must not stop us from letting go.
        await withDeadline(transport.terminateSession(), DELETE_TIMEOUT_MS, clock, () => new Error('DELETE took too long')).catch(() => {});
        await release();
      })();
      return closing;
    },
  };
}

/** Tells `related` the relatedRequestId each request is sent with, which the SDK's transport does not use on a client. */
class RelatingTransport extends StreamableHTTPClientTransport {
  readonly #related: RelatedRequests;

  constructor(related: RelatedRequests, ...args: ConstructorParameters<typeof StreamableHTTPClientTransport>) {
    super(...args);
    this.#related = related;
  }

  override send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    if (options?.relatedRequestId !== undefined && !Array.isArray(message) && isJSONRPCRequest(message))
      this.#related.sent(message.id, options.relatedRequestId);
    return super.send(message, options);
  }
}

/** `client.connect` bounded by the deadline and the caller's signal; the caller then closes the transport, which aborts its fetches and retry waits. */
async function handshake(client: Client, transport: Transport, clock: Clock, opts: HttpConnectOptions, name: string): Promise<void> {
  const abort = new AbortController();
  const connecting = client.connect(transport, { signal: abort.signal, timeout: opts.deadlineMs });
  // Whichever way the race ends, a late rejection must not go unhandled.
  connecting.catch(() => {});
  const cancelled = () => new BlitzError('CANCELLED', `connecting to MCP server ${name} was cancelled`, { cause: opts.signal?.reason });
  // The deadline outside: an abort settles the inner wait, which cancels the timer at once.
  const bounded = opts.signal ? untilAborted(connecting, opts.signal, cancelled) : connecting;
  try {
    await withDeadline(bounded, opts.deadlineMs, clock, () => initializeTimeout(name, opts.deadlineMs));
  } catch (err) {
    abort.abort(err);
    throw err;
  }
}
