import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { isRequest, type JsonLinesTransport } from '@blitz/core/lines';
import type { DaemonState } from '@blitz/client';
import { readClientRequest } from './client-line.js';
import { parseDaemonLine, readDaemonLine } from './daemon-line.js';

export interface BridgeOptions {
  /** The client side: stdio; lines are passed on as they are, both ways, where they can be. */
  client: Transport & Pick<JsonLinesTransport, 'sendLine' | 'online' | 'deliver'>;
  /** Finds the daemon, starting it when none runs. */
  daemon(): Promise<DaemonState>;
  /** Opens a session with it (`openDaemonStream`). */
  open(state: DaemonState, query: URLSearchParams): Promise<JsonLinesTransport>;
  query: URLSearchParams;
  log(message: string): void;
}

const REINIT_PREFIX = 'blitz-reinitialize-';

/**
 * `blitz connect`: the client's stdio, bridged to one upgraded `/mcp` connection to the daemon,
 * message by message. When the daemon restarts, the bridge reconnects and initializes again
 * with the client's own initialize request, behind its back: the client sees at most
 * `list_changed`. A request the old daemon had accepted gets an error (it may have run),
 * never a silent replay.
 */
export class StdioBridge {
  readonly #opts: BridgeOptions;
  #upstream: JsonLinesTransport | undefined;
  #connecting: Promise<JsonLinesTransport> | undefined;
  #initialize: JSONRPCRequest | undefined;
  #initialized = false;
  /** Requests written to the current connection and not answered, by id: their method. */
  readonly #inFlight = new Map<RequestId, string>();
  /** The bridge's own re-initialize, answered by the daemon and not passed on; by the connection it was sent on. */
  readonly #waiting = new Map<RequestId, { upstream: JsonLinesTransport; answered(message: JSONRPCMessage): void }>();
  #reinitCount = 0;
  #closed = false;
  readonly done: Promise<void>;
  #resolveDone!: () => void;

  constructor(opts: BridgeOptions) {
    this.#opts = opts;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  async start(): Promise<void> {
    const client = this.#opts.client;
    // A request passes on as its bytes; anything else is parsed (or refused) as ever, then `#fromClient`.
    client.online = (line) => {
      const request = readClientRequest(line);
      if (request) void this.#forward({ line }, request.id, request.method);
      else client.deliver(line);
    };
    client.onmessage = (message) => void this.#fromClient(message);
    this.#opts.client.onclose = () => void this.close();
    await this.#opts.client.start();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A reconnect in flight must not leave a live session behind once it lands.
    await this.#connecting?.catch(() => undefined);
    // The connection is the session: closing it ends the session in the daemon.
    await this.#upstream?.close().catch(() => undefined);
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
    await this.#forward({ message }, isRequest(message) ? message.id : undefined, 'method' in message ? message.method : undefined);
  }

  /** A message to the daemon, as the client's bytes or parsed; a request (`id`) is answered for if the daemon is lost. */
  async #forward(payload: { line: Buffer } | { message: JSONRPCMessage }, id: RequestId | undefined, method: string | undefined): Promise<void> {
    const first = 'message' in payload ? payload.message : undefined;
    // A second attempt only when the first was certainly never written: it cannot run twice.
    for (let attempt = 1; ; attempt++) {
      let upstream: JsonLinesTransport;
      try {
        upstream = await this.#connect(first);
      } catch (err) {
        // A daemon on its way out may refuse the connection; the next look may find (or start) another.
        if (attempt === 1 && !this.#closed) continue;
        if (id !== undefined) await this.#fail(id, `Blitz daemon unavailable: ${(err as Error).message}`);
        return;
      }
      if (id !== undefined) this.#inFlight.set(id, method ?? 'the request');
      try {
        await ('line' in payload ? upstream.sendLine(payload.line) : upstream.send(payload.message));
        return;
      } catch (err) {
        if (id !== undefined) this.#inFlight.delete(id);
        this.#lost(upstream);
        if (attempt === 2) {
          if (id !== undefined) await this.#fail(id, `Blitz daemon unavailable: ${(err as Error).message}`);
          return;
        }
        this.#opts.log('the daemon is gone; reconnecting');
      }
    }
  }

  /** The connection to the daemon, made (or made again) for `first`: the client's own initialize is not sent twice. */
  #connect(first: JSONRPCMessage | undefined): Promise<JsonLinesTransport> {
    if (this.#closed) return Promise.reject(new Error('blitz connect is closing'));
    if (this.#upstream) return Promise.resolve(this.#upstream);
    this.#connecting ??= (async () => {
      const upstream = await this.#opts.open(await this.#opts.daemon(), this.#opts.query);
      upstream.online = (line) => this.#fromDaemon(line);
      upstream.onclose = () => this.#lost(upstream);
      // Its close follows, and says what matters.
      upstream.onerror = () => undefined;
      try {
        await upstream.start();
        // A reconnect initializes on the client's behalf, unless the message is the client's own initialize.
        if (this.#initialize && !isInitialize(first)) await this.#reinitialize(upstream);
        if (this.#closed) throw new Error('blitz connect is closing');
      } catch (err) {
        await upstream.close().catch(() => undefined);
        throw err;
      }
      // Before the answer, so the client relists with the new daemon's view.
      if (this.#initialize && this.#initialized && !isInitialize(first)) await this.#tellListsChanged();
      this.#upstream = upstream;
      return upstream;
    })().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #reinitialize(upstream: JsonLinesTransport): Promise<void> {
    const id = `${REINIT_PREFIX}${++this.#reinitCount}`;
    const answered = new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, { upstream, answered: (message) => ('error' in message ? reject(new Error(message.error.message)) : resolve()) });
    });
    await upstream.send({ ...this.#initialize!, id });
    await answered;
    if (this.#initialized) await upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** A line from the daemon goes to the client as it came: only the id it answers is read. */
  #fromDaemon(line: Buffer): void {
    const read = readDaemonLine(line);
    if ('unreadable' in read) {
      this.#opts.log(`a line from the daemon was dropped: ${read.unreadable}`);
      return;
    }
    if (read.answers !== undefined) {
      const waiter = this.#waiting.get(read.answers);
      if (waiter) {
        this.#waiting.delete(read.answers);
        waiter.answered(parseDaemonLine(line));
        return;
      }
      this.#inFlight.delete(read.answers);
    }
    this.#opts.client.sendLine(line).catch(() => undefined);
  }

  /** A connection to the daemon closed: what it had accepted will never be answered; say so now. */
  #lost(upstream: JsonLinesTransport): void {
    for (const [id, waiter] of this.#waiting) {
      if (waiter.upstream !== upstream) continue;
      this.#waiting.delete(id);
      waiter.answered({ jsonrpc: '2.0', id, error: { code: -32000, message: 'the daemon closed the connection' } });
    }
    if (upstream !== this.#upstream) return;
    this.#upstream = undefined;
    for (const [id, method] of this.#inFlight) {
      void this.#fail(id, `the Blitz daemon stopped while ${method} was running; it may or may not have run — try again`);
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

function isInitialize(message: JSONRPCMessage | undefined): boolean {
  return message !== undefined && isRequest(message) && message.method === 'initialize';
}
