import { describe, expect, it } from 'vitest';
import { eventField, EventSplitter } from './sse-events.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (event: Uint8Array) => new TextDecoder().decode(event);

/** Every event `pieces` make, fed to one splitter in that order, then what the end leaves. */
function split(pieces: string[]): string[] {
  const splitter = new EventSplitter();
  const events = pieces.flatMap((piece) => splitter.push(bytes(piece)).map(text));
  const rest = splitter.end();
  return rest === undefined ? events : [...events, `(end) ${text(rest)}`];
}

describe('EventSplitter', () => {
  it('ends an event at a blank line, whichever line ending the server uses (LF, CRLF, CR)', () => {
    expect(split(['data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n'])).toEqual([
      'data: a\n\n',
      'data: b\r\n\r\n',
      'data: c\r\r',
      '(end) data: d\n',
    ]);
  });

  it('keeps an event whole however it is cut, a CRLF cut between its CR and LF included', () => {
    const stream = ': hi\r\nid: 1\r\ndata: {"a":1}\r\n\r\ndata: x\ndata: y\n\n';
    const whole = split([stream]);
    expect(whole).toEqual([': hi\r\nid: 1\r\ndata: {"a":1}\r\n\r\n', 'data: x\ndata: y\n\n']);
    for (let cut = 1; cut < stream.length; cut++) expect(split([stream.slice(0, cut), stream.slice(cut)]).join('')).toBe(stream);
    // Cut between the CR and LF ending the first event: it ends at the CR, the LF leads the next.
    const at = stream.indexOf('\r\n\r\n') + 3;
    expect(split([stream.slice(0, at), stream.slice(at)])).toEqual([': hi\r\nid: 1\r\ndata: {"a":1}\r\n\r', '\ndata: x\ndata: y\n\n']);
  });

  it('takes a large event byte by byte, holding what it has seen and ending it once', () => {
    const splitter = new EventSplitter();
    const event = `data: ${'x'.repeat(100_000)}\n\n`;
    const ended: Uint8Array[] = [];
    for (const byte of bytes(event)) ended.push(...splitter.push(Uint8Array.of(byte)));
    expect(ended.map(text)).toEqual([event]);
    expect(splitter.pendingBytes).toBe(0);
    splitter.push(bytes('data: half'));
    expect(splitter.pendingBytes).toBe(10);
  });
});

describe('eventField', () => {
  it("joins an event's data lines, takes its id, drops one leading space, and has nothing for a field absent", () => {
    const event = bytes(': data: not this\r\nid: 7\nevent:message\rdata: {"a":\ndata:1}\ndatum: no\n\n');
    expect(eventField(event, 'data')).toBe('{"a":\n1}');
    expect(eventField(event, 'id')).toBe('7');
    expect(eventField(event, 'event')).toBe('message');
    expect(eventField(bytes('data: x\n\n'), 'id')).toBeUndefined();
    expect(eventField(bytes('\ndata: é\n\n'), 'data')).toBe('é');
  });
});
