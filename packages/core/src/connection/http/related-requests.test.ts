import { describe, expect, it } from 'vitest';
import { RelatedRequests } from './related-requests.js';

const encoder = new TextEncoder();

/** A server's answer to a POST as an event stream, sent in the given pieces. */
function eventStream(pieces: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const post = (message: object) => ({ method: 'POST', body: JSON.stringify(message) });

describe('RelatedRequests', () => {
  it("notes a server request that came on a call's stream before the reader sees it, passes the bytes on unchanged, and forgets it when the stream ends", async () => {
    const related = new RelatedRequests();
    related.sent(5, 'call-1');
    const elicit = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: { message: 'who?' } });
    // CRLF endings, an event cut mid-line, a comment line, an id field.
    const pieces = [
      ': hi\r\nevent: message\r\nid: 1\r\ndata: ',
      elicit.slice(0, 20),
      `${elicit.slice(20)}\r\n\r\n`,
      'data: {"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"é',
      '"}]}}\n\n',
    ];
    const fetch = related.fetch(async () => eventStream(pieces));
    const response = await fetch('http://127.0.0.1/mcp', post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask' } }));
    const reader = response.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    let seenWhileReading: unknown;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.includes('elicitation/create') && seenWhileReading === undefined) seenWhileReading = related.relatedTo(0);
    }
    expect(seenWhileReading).toBe('call-1');
    expect(text).toBe(pieces.join(''));
    expect(related.relatedTo(0)).toBeUndefined();
  });

  it('notes a large server request that arrives in many small chunks, and passes every byte on', async () => {
    const related = new RelatedRequests();
    related.sent(5, 'call-1');
    const elicit = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'elicitation/create', params: { message: 'x'.repeat(1_000_000) } });
    const stream = `event: message\ndata: ${elicit}\n\n`;
    const pieces = Array.from({ length: Math.ceil(stream.length / 100) }, (_, i) => stream.slice(i * 100, (i + 1) * 100));
    const response = await related.fetch(async () => eventStream(pieces))(
      'http://127.0.0.1/mcp',
      post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask' } }),
    );
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let seenWhileReading: unknown;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const piece = decoder.decode(value, { stream: true });
      text += piece;
      if (piece.endsWith('\n\n')) seenWhileReading = related.relatedTo('big');
    }
    expect(pieces.length).toBeGreaterThan(10_000);
    expect(seenWhileReading).toBe('call-1');
    expect(text).toBe(stream);
  });

  it('leaves alone a POST whose request was sent without a related request, and a request on another stream is related to nothing', async () => {
    const related = new RelatedRequests();
    const answer = eventStream(['data: {"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}\n\n']);
    const fetch = related.fetch(async () => answer);
    expect(await fetch('http://127.0.0.1/mcp', post({ jsonrpc: '2.0', id: 9, method: 'tools/call' }))).toBe(answer);
    await answer.text();
    expect(related.relatedTo(1)).toBeUndefined();
  });
});
