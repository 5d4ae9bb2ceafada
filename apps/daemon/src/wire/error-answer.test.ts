import { BlitzError } from '@blitz/core';
import { describe, expect, it } from 'vitest';
import { errorAnswer, rpcErrorAnswer } from './error-answer.js';

describe('errorAnswer', () => {
  it.each([
    ['NOT_FOUND', 404],
    ['INVALID_ARGUMENT', 400],
    ['PAYLOAD_TOO_LARGE', 413],
    ['METHOD_NOT_ALLOWED', 405],
    ['UNAUTHENTICATED', 401],
    ['PERMISSION_DENIED', 403],
    ['FAILED_PRECONDITION', 412],
    ['SERVER_UNAVAILABLE', 503],
    ['RESULT_TOO_LARGE', 502],
  ] as const)('answers %s with %i, keeping code, reason and problems', (code, status) => {
    expect(errorAnswer(new BlitzError(code, 'why', { reason: 'FINER', problems: ['a', 'b'] }))).toEqual({
      status,
      body: { code, reason: 'FINER', message: 'why', problems: ['a', 'b'] },
    });
  });

  it('leaves out an absent reason and empty problems', () => {
    expect(errorAnswer(new BlitzError('NOT_FOUND', 'gone'))).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'gone' } });
  });

  it('says nothing of an unexpected error but that it happened', () => {
    expect(errorAnswer(new Error('secret detail'))).toEqual({
      status: 500,
      body: { code: 'INTERNAL', message: 'internal error; see the daemon log' },
    });
  });
});

describe('rpcErrorAnswer', () => {
  it.each([
    ['an invalid argument', new BlitzError('INVALID_ARGUMENT', 'bad mode'), 400, -32602],
    ['a body that is not JSON', new BlitzError('INVALID_ARGUMENT', 'x', { reason: 'NOT_JSON' }), 400, -32700],
    ['a body that is not JSON-RPC', new BlitzError('INVALID_ARGUMENT', 'x', { reason: 'NOT_JSON_RPC' }), 400, -32600],
    ['a request without a session', new BlitzError('INVALID_ARGUMENT', 'x', { reason: 'NO_SESSION' }), 400, -32000],
    ['an unknown session', new BlitzError('NOT_FOUND', 'x', { reason: 'SESSION_NOT_FOUND' }), 404, -32001],
    ['a body too large', new BlitzError('PAYLOAD_TOO_LARGE', 'x'), 413, -32600],
    ['a wrong token', new BlitzError('UNAUTHENTICATED', 'x', { reason: 'BAD_TOKEN' }), 401, -32000],
    ['a missing resource a request names', new BlitzError('NOT_FOUND', 'x'), 404, -32602],
    ['a daemon stopping', new BlitzError('SERVER_UNAVAILABLE', 'x'), 503, -32603],
    ['an unexpected error', new Error('x'), 500, -32603],
  ])('answers %s with the status the control API gives and its JSON-RPC code', (_, err, status, code) => {
    expect(rpcErrorAnswer(err)).toMatchObject({ status, error: { code } });
  });

  it('puts every problem in the message, since JSON-RPC has no field for them', () => {
    expect(rpcErrorAnswer(new BlitzError('INVALID_ARGUMENT', 'not valid', { problems: ['a: wrong', 'b: missing'] })).error.message).toBe(
      'not valid: a: wrong; b: missing',
    );
  });
});
