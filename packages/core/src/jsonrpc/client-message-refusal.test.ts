import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { refuseClientMessage } from './client-message-refusal.js';

const refuse = (message: object) => refuseClientMessage(message as JSONRPCMessage, 64);

describe('refuseClientMessage (issue 25.5)', () => {
  it.each([null, { a: 1 }, [1], 1.5, true])('a request with the id %j is answered -32600 with id null', (id) => {
    expect(refuse({ jsonrpc: '2.0', id, method: 'ping' })?.answer).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a request id must be a string or an integer' },
    });
  });

  it('params that are not an object: -32602 under the request id; a notification is dropped (null)', () => {
    expect(refuse({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: [] })?.answer).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'Invalid params: the params of tools/list must be an object, not an array' },
    });
    expect(refuse({ jsonrpc: '2.0', id: 'a', method: 'ping', params: 'x' })?.answer?.error.message).toBe(
      'Invalid params: the params of ping must be an object, not a string',
    );
    expect(refuse({ jsonrpc: '2.0', method: 'notifications/initialized', params: null })).toEqual({
      answer: null,
      why: 'Invalid params: the params of notifications/initialized must be an object, not null',
    });
  });

  it('too deep, as refuseTooDeep; a fine request, an answer and a notification pass', () => {
    const deep = JSON.parse('['.repeat(100) + ']'.repeat(100)) as unknown;
    expect(refuse({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { deep } } })?.answer?.error.code).toBe(
      -32602,
    );
    for (const fine of [
      { jsonrpc: '2.0', id: 0, method: 'ping' },
      { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: {} },
      { jsonrpc: '2.0', id: null, result: {} },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]) {
      expect(refuse(fine)).toBeUndefined();
    }
  });
});
