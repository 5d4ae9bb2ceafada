import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import {
  isRequest,
  oversizeRefusal,
  parseDaemonLine,
  readClientRequest,
  readDaemonLine,
  type ClientRequestHead,
  type LineRefusal,
} from '@blitz/core/lines';
import type { DaemonState } from '@blitz/client';
import { readClientMessage } from './client-message.js';
import type { LineLink } from './line-link.js';

export interface BridgeOptions {
  /** The client side: stdio, half-open (a client that sent its last request still reads its answers). */
  client: LineLink;
  /** Finds the daemon, starting it when none runs. */
  daemon(): Promise<DaemonState>;
  /** Opens a session with it (`openDaemonStream`). */
  open(state: DaemonState, query: URLSearchParams): Promise<LineLink>;
  query: URLSearchParams;
  /** The bounds of what the client sends: a longer line is refused unread, a deeper message refused. */
  maxMessageBytes: number;
  maxDepth: number;
  log(message: string): void;
}

const REINIT_PREFIX = 'blitz-reinitialize-';
const NEWLINE = Buffer.from('\n');

/** A message for the daemon: the client's bytes (one line, its `\n` left out), or a message to write. */
type Payload = { line: Buffer } | { message: JSONRPCMessage };

/**
 * `blitz connect`: the client's stdio, bridged to one upgraded `/mcp` connection to the daemon.
 * In the common case each side's chunk of lines goes to the other in one write, as it was
 * read: only the id (and method) of each line is read from its bytes, to know what is in
 * flight. A line written in another shape is parsed and checked first, and `initialize` is
 * kept. When the daemon restarts, the bridge reconnects and initializes again with the
 * client's own initialize request, behind its back: the client sees at most `list_changed`.
 * A request the old daemon had accepted gets an error (it may have run), never a silent
 * replay. When the client's input ends, what is in flight is still answered, then the bridge
 * closes.
 */
export class StdioBridge {
  readonly #opts: BridgeOptions;
  readonly #client: LineLink;
  #upstream: LineLink | undefined;
  #connecting: Promise<LineLink> | undefined;
  /** Messages waiting for a connection; while any waits, every later line waits behind it, in order. */
  #queued = 0;
  #initialize: JSONRPCRequest | undefined;
  #initialized = false;
  /** Requests written to the current connection and not answered, by id: their method. */
  readonly #inFlight = new Map<RequestId, string>();
  /** The bridge's own re-initialize, answered by the daemon and not passed on; by the connection it was sent on. */
  readonly #waiting = new Map<RequestId, { upstream: LineLink; answered(message: JSONRPCMessage): void }>();
  #reinitCount = 0;
  /** The client's input ended: the bridge closes once nothing it sent is still waiting for an answer. */
  #clientEnded = false;
  #closed = false;
  readonly done: Promise<void>;
  #resolveDone!: () => void;

  constructor(opts: BridgeOptions) {
    this.#opts = opts;
    this.#client = opts.client;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  start(): void {
    const client = this.#client;
    client.onlines = (lines) => this.#fromClientLines(lines);
    client.onoversize = (line) => this.#answerClient(oversizeRefusal(line, this.#opts.maxMessageBytes));
    client.onend = () => {
      this.#clientEnded = true;
      this.#closeWhenAnswered();
    };
    client.onclose = () => void this.close();
    // What matters of a failed stdio is its close, which follows.
    client.onerror = () => undefined;
    client.start();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A reconnect in flight must not leave a live session behind once it lands.
    await this.#connecting?.catch(() => undefined);
    // The connection is the session: closing it ends the session in the daemon.
    await this.#upstream?.close().catch(() => undefined);
    await this.#client.close().catch(() => undefined);
    this.#resolveDone();
  }

  /** Whole lines from the client: each run of requests it can pass as bytes goes in one write. */
  #fromClientLines(lines: Buffer): void {
    // The run so far: lines from `from`, all for `run`.
    let from = 0;
    let run: LineLink | undefined;
    for (let at = 0; at < lines.length;) {
      const end = lines.indexOf(0x0a, at);
      const request = readClientRequest(lines, at, end);
      const upstream = request && this.#passable();
      if (upstream && (run === undefined || run === upstream)) {
        run = upstream;
        this.#inFlight.set(request.id, request.method);
      } else {
        if (run) run.write(lines.subarray(from, at));
        run = undefined;
        this.#fromClientLine(lines.subarray(at, end), request);
        from = end + 1;
      }
      at = end + 1;
    }
    if (run) run.write(from === 0 ? lines : lines.subarray(from));
    if (this.#upstream) this.#client.holdWhileBacklogged(this.#upstream);
  }

  /** The connection a line can be written to now, in order: there is one, open, and nothing waits for it. */
  #passable(): LineLink | undefined {
    const upstream = this.#upstream;
    return upstream && this.#queued === 0 && !upstream.closed ? upstream : undefined;
  }

  /** A line not passed on with the run it came in: a request waiting for a connection, or a message read whole. */
  #fromClientLine(line: Buffer, request: ClientRequestHead | undefined): void {
    if (request) {
      this.#forward({ line }, request.id, request.method);
      return;
    }
    const read = readClientMessage(line.at(-1) === 0x0d ? line.subarray(0, -1) : line, this.#opts.maxDepth);
    if ('refused' in read) this.#answerClient(read.refused);
    else if ('message' in read) this.#fromClient(read.message);
  }

  #fromClient(message: JSONRPCMessage): void {
    if (isRequest(message) && message.method === 'initialize') this.#initialize = message;
    if ('method' in message && message.method === 'notifications/initialized') this.#initialized = true;
    if ('method' in message && message.method === 'notifications/cancelled') {
      // The daemon does not answer a cancelled request: stop waiting for it.
      this.#inFlight.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
    }
    this.#forward({ message }, isRequest(message) ? message.id : undefined, 'method' in message ? message.method : undefined);
  }

  /** A message to the daemon, now when it can go now, else once connected; a request (`id`) is answered for if the daemon is lost. */
  #forward(payload: Payload, id: RequestId | undefined, method: string | undefined): void {
    const upstream = this.#passable();
    if (upstream) {
      upstream.write(bytesOf(payload));
      if (id !== undefined) this.#inFlight.set(id, method ?? 'the request');
      return;
    }
    this.#queued++;
    void this.#forwardConnected(payload, id, method).finally(() => {
      this.#queued--;
      this.#closeWhenAnswered();
    });
  }

  async #forwardConnected(payload: Payload, id: RequestId | undefined, method: string | undefined): Promise<void> {
    const first = 'message' in payload ? payload.message : undefined;
    // A second attempt only when the first was certainly never written: it cannot run twice.
    for (let attempt = 1; ; attempt++) {
      let upstream: LineLink;
      try {
        upstream = await this.#connect(first);
      } catch (err) {
        // A daemon on its way out may refuse the connection; the next look may find (or start) another.
        if (attempt === 1 && !this.#closed) continue;
        if (id !== undefined) this.#fail(id, `Blitz daemon unavailable: ${(err as Error).message}`);
        return;
      }
      if (upstream.write(bytesOf(payload))) {
        if (id !== undefined) this.#inFlight.set(id, method ?? 'the request');
        return;
      }
      this.#lost(upstream);
      if (attempt === 2) {
        if (id !== undefined) this.#fail(id, 'Blitz daemon unavailable: the connection is closed; the message was not sent');
        return;
      }
      this.#opts.log('the daemon is gone; reconnecting');
    }
  }

  /** The connection to the daemon, made (or made again) for `first`: the client's own initialize is not sent twice. */
  #connect(first: JSONRPCMessage | undefined): Promise<LineLink> {
    if (this.#closed) return Promise.reject(new Error('blitz connect is closing'));
    if (this.#upstream) return Promise.resolve(this.#upstream);
    this.#connecting ??= (async () => {
      const upstream = await this.#opts.open(await this.#opts.daemon(), this.#opts.query);
      upstream.onlines = (lines) => this.#fromDaemonLines(upstream, lines);
      upstream.onclose = () => this.#lost(upstream);
      // Its close follows, and says what matters.
      upstream.onerror = () => undefined;
      try {
        upstream.start();
        // A reconnect initializes on the client's behalf, unless the message is the client's own initialize.
        if (this.#initialize && !isInitialize(first)) await this.#reinitialize(upstream);
        if (this.#closed) throw new Error('blitz connect is closing');
      } catch (err) {
        await upstream.close().catch(() => undefined);
        throw err;
      }
      // Before the answer, so the client relists with the new daemon's view.
      if (this.#initialize && this.#initialized && !isInitialize(first)) this.#tellListsChanged();
      this.#upstream = upstream;
      return upstream;
    })().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #reinitialize(upstream: LineLink): Promise<void> {
    const id = `${REINIT_PREFIX}${++this.#reinitCount}`;
    const answered = new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, {
        upstream,
        answered: (message) => ('error' in message ? reject(new Error(message.error.message)) : resolve()),
      });
    });
    if (!upstream.write(lineOf({ ...this.#initialize!, id }))) this.#lost(upstream);
    await answered;
    if (this.#initialized) upstream.write(lineOf({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  /** Whole lines from the daemon: they go to the client as they came, in one write, only the id each answers read. */
  #fromDaemonLines(upstream: LineLink, lines: Buffer): void {
    let from = 0;
    for (let at = 0; at < lines.length;) {
      const end = lines.indexOf(0x0a, at);
      const read = at === end ? undefined : readDaemonLine(lines, at, end);
      const answers = read && 'answers' in read ? read.answers : undefined;
      const waiter = answers === undefined ? undefined : this.#waiting.get(answers);
      if (read && 'answers' in read && !waiter) {
        if (answers !== undefined) this.#inFlight.delete(answers);
      } else {
        if (at > from) this.#client.write(lines.subarray(from, at));
        from = end + 1;
        if (waiter) {
          this.#waiting.delete(answers!);
          waiter.answered(parseDaemonLine(lines.subarray(at, end)));
        } else if (read && 'unreadable' in read) {
          this.#opts.log(`a line from the daemon was dropped: ${read.unreadable}`);
        }
      }
      at = end + 1;
    }
    if (lines.length > from) this.#client.write(from === 0 ? lines : lines.subarray(from));
    upstream.holdWhileBacklogged(this.#client);
    if (upstream === this.#upstream) this.#closeWhenAnswered();
  }

  /** A connection to the daemon closed: what it had accepted will never be answered; say so now. */
  #lost(upstream: LineLink): void {
    for (const [id, waiter] of this.#waiting) {
      if (waiter.upstream !== upstream) continue;
      this.#waiting.delete(id);
      waiter.answered({ jsonrpc: '2.0', id, error: { code: -32000, message: 'the daemon closed the connection' } });
    }
    if (upstream !== this.#upstream) return;
    this.#upstream = undefined;
    for (const [id, method] of this.#inFlight) {
      this.#fail(id, `the Blitz daemon stopped while ${method} was running; it may or may not have run — try again`);
    }
    this.#inFlight.clear();
    this.#closeWhenAnswered();
  }

  /** Once the client's input has ended, the bridge closes when all it sent has been answered (or failed). */
  #closeWhenAnswered(): void {
    if (this.#clientEnded && this.#queued === 0 && this.#inFlight.size === 0 && this.#connecting === undefined) void this.close();
  }

  #fail(id: RequestId, message: string): void {
    this.#client.write(lineOf({ jsonrpc: '2.0', id, error: { code: -32603, message } }));
  }

  #answerClient(answer: LineRefusal | null): void {
    if (answer) this.#client.write(lineOf(answer));
  }

  #tellListsChanged(): void {
    for (const method of [
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]) {
      this.#client.write(lineOf({ jsonrpc: '2.0', method }));
    }
  }
}

function isInitialize(message: JSONRPCMessage | undefined): boolean {
  return message !== undefined && isRequest(message) && message.method === 'initialize';
}

function lineOf(message: object): string {
  return `${JSON.stringify(message)}\n`;
}

function bytesOf(payload: Payload): Buffer | string {
  return 'line' in payload ? Buffer.concat([payload.line, NEWLINE]) : lineOf(payload.message);
}
