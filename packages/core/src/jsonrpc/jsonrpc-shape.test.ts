import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { answerId, isNotification, isRequest, looksLikeMessage } from './jsonrpc-shape.js';

const request: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const notification: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
const result: JSONRPCMessage = { jsonrpc: '2.0', id: 'a', result: {} };
const error: JSONRPCMessage = { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'x' } };

describe('jsonrpc-shape', () => {
  it.each([
    ['a request', request, true, false, undefined],
    ['a notification', notification, false, true, undefined],
    ['a result', result, false, false, 'a'],
    ['an error', error, false, false, 2],
  ])('%s', (_, message, request_, notification_, answer) => {
    expect(isRequest(message)).toBe(request_);
    expect(isNotification(message)).toBe(notification_);
    expect(answerId(message)).toBe(answer);
  });

  it.each([
    [request, true],
    [{ jsonrpc: '1.0', id: 1, method: 'x' }, false],
    [{ id: 1, method: 'x' }, false],
    [{ jsonrpc: '2.0' }, false],
    [result, true],
    [error, true],
    [{ jsonrpc: '2.0', id: 5 }, false],
    [[request], false],
    ['text', false],
    [null, false],
  ])('looksLikeMessage(%j) → %s', (value, expected) => {
    expect(looksLikeMessage(value)).toBe(expected);
  });
});
