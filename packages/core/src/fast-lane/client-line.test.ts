import { describe, expect, it } from 'vitest';
import { readClientRequest } from './client-line.js';

const read = (text: string) => readClientRequest(Buffer.from(text));

describe('readClientRequest', () => {
  it('reads a request as the SDK client writes it: method first, id last', () => {
    expect(read('{"method":"tools/call","params":{"name":"echo","arguments":{"text":"ü"}},"jsonrpc":"2.0","id":7}')).toEqual({
      id: 7,
      method: 'tools/call',
    });
    expect(read('{"method":"tools/list","jsonrpc":"2.0","id":"a-1"}')).toEqual({ id: 'a-1', method: 'tools/list' });
    // Its ends only: a long request's middle is never read.
    expect(read(`{"method":"tools/call","params":{"x":"${'y'.repeat(10_000)}"},"jsonrpc":"2.0","id":-2}`)).toEqual({
      id: -2,
      method: 'tools/call',
    });
  });

  it('reads one line of several in place, its \\r skipped', () => {
    const lines = Buffer.from('{"method":"ping","jsonrpc":"2.0","id":1}\n{"method":"tools/list","jsonrpc":"2.0","id":2}\r\n');
    const second = lines.indexOf(0x0a) + 1;
    expect(readClientRequest(lines, 0, second - 1)).toEqual({ id: 1, method: 'ping' });
    expect(readClientRequest(lines, second, lines.length - 1)).toEqual({ id: 2, method: 'tools/list' });
  });

  it('reads a request written jsonrpc and id first', () => {
    expect(read('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}')).toEqual({ id: 3, method: 'tools/call' });
    expect(read('{"jsonrpc":"2.0","id":"x","method":"ping"}')).toEqual({ id: 'x', method: 'ping' });
  });

  it('leaves everything else to be parsed whole: initialize, notifications, answers, other spellings', () => {
    expect(read('{"method":"initialize","params":{},"jsonrpc":"2.0","id":0}')).toBeUndefined();
    expect(read('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}')).toBeUndefined();
    expect(read('{"method":"notifications/initialized","jsonrpc":"2.0"}')).toBeUndefined();
    expect(read('{"method":"notifications/cancelled","params":{"requestId":7,"id":8},"jsonrpc":"2.0"}')).toBeUndefined();
    expect(read('{"result":{},"jsonrpc":"2.0","id":1}')).toBeUndefined();
    // An id in the middle, spaces, an escaped id: not one of the shapes read from the ends.
    expect(read('{"method":"tools/call","id":1,"params":{},"jsonrpc":"2.0"}')).toBeUndefined();
    expect(read('{ "jsonrpc": "2.0", "id": 1, "method": "ping" }')).toBeUndefined();
    expect(read('{"method":"ping","jsonrpc":"2.0","id":"a\\"b"}')).toBeUndefined();
    // Ids JSON-RPC peers do not write: fractions, exponents.
    expect(read('{"jsonrpc":"2.0","id":1.5,"method":"ping"}')).toBeUndefined();
    expect(read('{"method":"ping","jsonrpc":"2.0","id":1e3}')).toBeUndefined();
    // An id inside the params, not the request's own.
    expect(read('{"method":"tools/call","params":{"jsonrpc":"2.0","id":5}}')).toBeUndefined();
  });
});
