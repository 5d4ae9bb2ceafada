import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { requestIds } from './limit-response.js';
import { eventField, EventSplitter } from './sse-events.js';

/**
 * Which of our requests a remote server's own request belongs to. A server asking something
 * while it handles a request sends it on that request's POST response stream (streamable
 * HTTP); the SDK's client transport does not say which stream a message came on, so this
 * watches both ends: `sent` records the `relatedRequestId` each request went out with, and
 * `fetch` notes the server requests each POST's event stream carries, before the SDK reads them.
 */
export class RelatedRequests {
  /** Our request id → the relatedRequestId it was sent with. */
  readonly #sentWith = new Map<RequestId, RequestId>();
  /** A server request id → the relatedRequestId of the request on whose stream it came. */
  readonly #cameWith = new Map<RequestId, RequestId>();

  sent(id: RequestId, related: RequestId): void {
    this.#sentWith.set(id, related);
  }

  /** The relatedRequestId of the request on whose stream this server request came; undefined when it came elsewhere. */
  relatedTo(serverRequestId: RequestId): RequestId | undefined {
    return this.#cameWith.get(serverRequestId);
  }

  fetch(base: FetchLike): FetchLike {
    return async (url, init) => {
      const ours = init?.method === 'POST' ? requestIds(init.body).filter((id) => this.#sentWith.has(id)) : [];
      if (ours.length === 0) return base(url, init);
      const forget = (seen: readonly RequestId[]) => {
        for (const id of ours) this.#sentWith.delete(id);
        for (const id of seen) this.#cameWith.delete(id);
      };
      let response: Response;
      try {
        response = await base(url, init);
      } catch (err) {
        forget([]);
        throw err;
      }
      if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        forget([]);
        return response;
      }
      // The SDK sends one message a POST: a batch would leave which request a server's is about unknown.
      const related = ours.length === 1 ? this.#sentWith.get(ours[0]!) : undefined;
      const seen: RequestId[] = [];
      const watched = response.body.pipeThrough(
        watchEvents(
          (message) => {
            if (related === undefined || !('method' in message) || !('id' in message)) return;
            this.#cameWith.set(message.id, related);
            seen.push(message.id);
          },
          () => forget(seen),
        ),
      );
      return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }
}

/** Passes an event stream on unchanged, handing each JSON-RPC message in it to `onMessage` first. */
function watchEvents(onMessage: (message: JSONRPCMessage) => void, onEnd: () => void): TransformStream<Uint8Array, Uint8Array> {
  const events = new EventSplitter();
  const parse = (event: Uint8Array) => {
    // Only a server's request matters here, and it has a method: a result (perhaps megabytes) is
    // left to the SDK, not even decoded.
    if (Buffer.from(event.buffer, event.byteOffset, event.byteLength).indexOf('"method"') < 0) return;
    const text = eventField(event, 'data');
    if (text === undefined) return;
    try {
      const parsed = JSON.parse(text) as unknown;
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) if (typeof m === 'object' && m !== null) onMessage(m as JSONRPCMessage);
    } catch {
      // Not JSON: the SDK reports it; nothing to note here.
    }
  };
  // A stream cut short (the link closing) never flushes: what it noted goes with the link.
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      for (const event of events.push(chunk)) parse(event);
      controller.enqueue(chunk);
    },
    flush() {
      onEnd();
    },
  });
}
