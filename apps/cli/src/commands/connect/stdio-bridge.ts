import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { answerId, isRequest } from '@blitz/core';
import type { DaemonState } from '@blitz/client';

export interface BridgeOptions {
  /** The client side: stdio in production, a linked pair in tests. */
  client: Transport;
  /** Finds the daemon, starting it when none runs. */
  daemon(): Promise<DaemonState>;
  query: URLSearchParams;
  log(message: string): void;
}

const REINIT_PREFIX = 'blitz-reinitialize-';

/**
 * `blitz connect`: the client's stdio, bridged to the daemon's `/mcp` message by message.
 * When the daemon restarts, the bridge reconnects and initializes again with the client's own
 * initialize request, behind its back: the client sees at most `list_changed`. A request
 * the old daemon had accepted gets an error (it may have run), never a silent replay.
 */
export class StdioBridge {
  readonly #opts: BridgeOptions;
  #upstream: StreamableHTTPClientTransport | undefined;
  #connecting: Promise<StreamableHTTPClientTransport> | undefined;
  #initialize: JSONRPCRequest | undefined;
  #initialized = false;
  /** Requests the current daemon accepted and has not answered, by id. */
  #inFlight = new Map<RequestId, JSONRPCRequest>();
  /** Requests being sent now: their own send decides their fate, not a `#drop` by another. */
  #sending = new Set<RequestId>();
  #reinitCount = 0;
  #closed = false;
  readonly done: Promise<void>;
  #resolveDone!: () => void;

  constructor(opts: BridgeOptions) {
    this.#opts = opts;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  async start(): Promise<void> {
    this.#opts.client.onmessage = (message) => void this.#fromClient(message);
    this.#opts.client.onclose = () => void this.close();
    await this.#opts.client.start();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A reconnect in flight must not leave a live session behind once it lands.
    await this.#connecting?.catch(() => undefined);
    const upstream = this.#upstream;
    if (upstream) {
      await upstream.terminateSession().catch(() => undefined);
      await upstream.close().catch(() => undefined);
    }
    await this.#opts.client.close().catch(() => undefined);
    this.#resolveDone();
  }

  async #fromClient(message: JSONRPCMessage): Promise<void> {
    if (isRequest(message) && message.method === 'initialize') this.#initialize = message;
    if ('method' in message && message.method === 'notifications/initialized') this.#initialized = true;
    if ('method' in message && message.method === 'notifications/cancelled') {
      // The daemon does not answer a cancelled request: stop waiting for it.
      this.#inFlight.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
    }
    let used: StreamableHTTPClientTransport | undefined;
    try {
      used = await this.#connect(message);
      await this.#send(used, message);
    } catch (err) {
      if (used !== undefined && !notAccepted(err)) {
        // The daemon may have taken it (the answer broke off): say so, never run it twice.
        if (isRequest(message)) await this.#fail(message.id, `the Blitz daemon stopped while ${message.method} was sent; it may or may not have run — try again`);
        if (used && used === this.#upstream) this.#drop();
        return;
      }
      // Never reached a daemon: start over with a fresh one and send it again.
      this.#opts.log(`the daemon is gone (${(err as Error).message}); reconnecting`);
      if (!used || used === this.#upstream) this.#drop();
      try {
        const upstream = await this.#connect(message);
        // Before the answer, so the client relists with the new daemon's view.
        if (this.#initialized) await this.#tellListsChanged();
        await this.#send(upstream, message);
      } catch (again) {
        if (isRequest(message)) await this.#fail(message.id, `Blitz daemon unavailable: ${(again as Error).message}`);
      }
    }
  }

  async #send(upstream: StreamableHTTPClientTransport, message: JSONRPCMessage): Promise<void> {
    const id = isRequest(message) ? message.id : undefined;
    if (id !== undefined) this.#sending.add(id);
    try {
      await upstream.send(message);
      // Answered already (a JSON answer arrives inside send), or now waiting for it.
      if (id !== undefined && this.#sending.has(id)) this.#inFlight.set(id, message as JSONRPCRequest);
    } finally {
      if (id !== undefined) this.#sending.delete(id);
    }
  }

  #connect(first: JSONRPCMessage): Promise<StreamableHTTPClientTransport> {
    if (this.#upstream) return Promise.resolve(this.#upstream);
    this.#connecting ??= (async () => {
      const state = await this.#opts.daemon();
      const url = new URL(`http://127.0.0.1:${state.port}/mcp?${this.#opts.query}`);
      const upstream = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${state.token}` } } });
      upstream.onmessage = (message) => void this.#fromDaemon(message);
      upstream.onerror = () => void this.#probe(upstream, state);
      await upstream.start();
      // A reconnect initializes on the client's behalf, unless the message is the client's own initialize.
      const isInitialize = isRequest(first) && first.method === 'initialize';
      if (this.#initialize && !isInitialize) await this.#reinitialize(upstream);
      if (this.#closed) {
        await upstream.terminateSession().catch(() => undefined);
        await upstream.close().catch(() => undefined);
        throw new Error('blitz connect is closing');
      }
      this.#upstream = upstream;
      return upstream;
    })().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #reinitialize(upstream: StreamableHTTPClientTransport): Promise<void> {
    const id = `${REINIT_PREFIX}${++this.#reinitCount}`;
    const answered = new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, (message) => ('error' in message ? reject(new Error(message.error.message)) : resolve()));
    });
    await upstream.send({ ...this.#initialize!, id });
    await answered;
    if (this.#initialized) await upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  #waiting = new Map<RequestId, (message: JSONRPCMessage) => void>();

  async #fromDaemon(message: JSONRPCMessage): Promise<void> {
    const answered = answerId(message);
    if (answered !== undefined) {
      const waiter = this.#waiting.get(answered);
      if (waiter) {
        this.#waiting.delete(answered);
        waiter(message);
        return;
      }
      this.#inFlight.delete(answered);
      this.#sending.delete(answered);
    }
    await this.#opts.client.send(message).catch(() => undefined);
  }

  /**
   * A stream to the daemon broke. If the daemon no longer answers, the requests it had
   * accepted will never be answered: fail them now rather than leave the client waiting.
   */
  async #probe(upstream: StreamableHTTPClientTransport, state: DaemonState): Promise<void> {
    if (upstream !== this.#upstream || this.#inFlight.size === 0) return;
    const alive = await fetch(`http://127.0.0.1:${state.port}/v1/health`, { headers: { authorization: `Bearer ${state.token}` }, signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (!alive && upstream === this.#upstream) this.#drop();
  }

  /** Forgets the daemon that went away; requests it had accepted are answered with an error. */
  #drop(): void {
    const old = this.#upstream;
    this.#upstream = undefined;
    void old?.close().catch(() => undefined);
    for (const request of this.#inFlight.values()) {
      void this.#fail(request.id, `the Blitz daemon restarted while ${request.method} was running; it may or may not have run — try again`);
    }
    this.#inFlight.clear();
  }

  async #fail(id: RequestId, message: string): Promise<void> {
    await this.#opts.client.send({ jsonrpc: '2.0', id, error: { code: -32603, message } }).catch(() => undefined);
  }

  async #tellListsChanged(): Promise<void> {
    for (const method of ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed']) {
      await this.#opts.client.send({ jsonrpc: '2.0', method }).catch(() => undefined);
    }
  }
}

/**
 * Whether a failed send certainly never reached a daemon, so sending it again cannot run it
 * twice: the connection was refused, or the daemon did not know the session (it restarted).
 */
function notAccepted(err: unknown): boolean {
  if (err instanceof StreamableHTTPError) return err.code === 404;
  return (err as { cause?: { code?: string } } | undefined)?.cause?.code === 'ECONNREFUSED';
}
