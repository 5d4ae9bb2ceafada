import { describe, expect, it } from 'vitest';
import { parseDaemonLine, readDaemonLine } from './daemon-line.js';

const read = (text: string) => readDaemonLine(Buffer.from(text));

describe('readDaemonLine', () => {
  it('reads the id of a result as the daemon writes it (result first, id last) from its ends alone', () => {
    expect(read('{"result":{"content":[]},"jsonrpc":"2.0","id":7}')).toEqual({ answers: 7 });
    expect(read('{"result":{"tools":[]},"jsonrpc":"2.0","id":"id-2"}')).toEqual({ answers: 'id-2' });
    // The ends are all that is read: what lies between passes on as it is.
    expect(read('{"result":{"text":"cut short ,"jsonrpc":"2.0","id":9}')).toEqual({ answers: 9 });
    // Not that shape at its end: read whole.
    expect(read('{"result":{"a":{"jsonrpc":"2.0","id":3}},"id":4,"jsonrpc":"2.0"}')).toEqual({ answers: 4 });
  });

  it('reads the id of an answer the daemon wrote id first from its head alone', () => {
    expect(read('{"jsonrpc":"2.0","id":7,"result":{"content":[]}}')).toEqual({ answers: 7 });
    expect(read('{"jsonrpc":"2.0","id":-3,"error":{"code":-32603,"message":"x"}}')).toEqual({ answers: -3 });
    expect(read('{"jsonrpc":"2.0","id":"blitz-reinitialize-1","result":{}}')).toEqual({ answers: 'blitz-reinitialize-1' });
    // The head is all that is read: the rest passes on as it is.
    expect(read('{"jsonrpc":"2.0","id":1,"result":{"text":"a line cut short')).toEqual({ answers: 1 });
  });

  it('takes a notification or a request of the daemon, method first, for no answer', () => {
    expect(read('{"method":"notifications/tools/list_changed","jsonrpc":"2.0"}')).toEqual({ answers: undefined });
    expect(read('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}')).toEqual({ answers: undefined });
  });

  it('reads any other line whole: escaped or non-ASCII ids, requests with an id', () => {
    expect(read('{"result":{},"jsonrpc":"2.0","id":"a\\"b"}')).toEqual({ answers: 'a"b' });
    expect(read('{"jsonrpc":"2.0","id":"a\\"b","result":{}}')).toEqual({ answers: 'a"b' });
    expect(read('{"jsonrpc":"2.0","id":"ü","result":{}}')).toEqual({ answers: 'ü' });
    expect(read('{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}}')).toEqual({ answers: undefined });
    expect(read(' {"jsonrpc":"2.0","id":4,"result":{}}')).toEqual({ answers: 4 });
  });

  it('says why a line is unreadable: not JSON, or not JSON-RPC', () => {
    expect(read('{"jsonrpc":')).toEqual({ unreadable: expect.stringMatching(/^not JSON/) });
    expect(read('{"id":1}')).toEqual({ unreadable: 'valid JSON, but not a JSON-RPC 2.0 message' });
  });

  it('parses a whole line into its message', () => {
    expect(parseDaemonLine(Buffer.from('{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"ü"}}'))).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      error: { code: 1, message: 'ü' },
    });
  });
});
