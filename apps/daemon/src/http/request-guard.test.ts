import { describe, expect, it } from 'vitest';
import { errorAnswer } from './error-answer.js';
import { guardRequest } from './request-guard.js';

const TOKEN = 'tok-123';
const request = (headers: Record<string, string>) => ({ headers });
const auth = { authorization: `Bearer ${TOKEN}` };

function outcome(headers: Record<string, string>): string {
  try {
    guardRequest(request(headers), 4000, TOKEN);
    return 'ok';
  } catch (err) {
    const { status, body } = errorAnswer(err);
      return `${status} ${body.reason}`;
  }
}

describe('guardRequest', () => {
  it.each([
    ['127.0.0.1 with the token', { host: '127.0.0.1:4000', ...auth }, 'ok'],
    ['localhost with the token', { host: 'localhost:4000', ...auth }, 'ok'],
    ['a same-origin page', { host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000', ...auth }, 'ok'],
    ['no token', { host: '127.0.0.1:4000' }, '401 BAD_TOKEN'],
    ['a wrong token', { host: '127.0.0.1:4000', authorization: 'Bearer nope' }, '401 BAD_TOKEN'],
    ['a token of another length', { host: '127.0.0.1:4000', authorization: `Bearer ${TOKEN}x` }, '401 BAD_TOKEN'],
    ['another scheme', { host: '127.0.0.1:4000', authorization: `Basic ${TOKEN}` }, '401 BAD_TOKEN'],
    ['a rebinding host', { host: 'evil.example:4000', ...auth }, '403 FOREIGN_HOST'],
    ['another port', { host: '127.0.0.1:4001', ...auth }, '403 FOREIGN_HOST'],
    ['no host', { ...auth }, '403 FOREIGN_HOST'],
    ['a foreign origin', { host: '127.0.0.1:4000', origin: 'https://evil.example', ...auth }, '403 FOREIGN_ORIGIN'],
    ['a null origin', { host: '127.0.0.1:4000', origin: 'null', ...auth }, '403 FOREIGN_ORIGIN'],
  ])('%s', (_, headers, expected) => {
    expect(outcome(headers)).toBe(expected);
  });
});
