import { describe, expect, it } from 'vitest';
import type { BreakerStatus } from '../breaker/breaker-status.js';
import { toServerStatus, type ConnectionView, type ServerStatus } from './server-status.js';

const other = { code: 'OTHER', message: 'm' } as const;
const running: ConnectionView = { kind: 'connected', tools: ['echo'], pid: 7 };
const exited: ConnectionView = { kind: 'failed', message: 'MCP server s exited with code 1', cause: other };
const closed: BreakerStatus = { kind: 'closed' };
const failing: BreakerStatus = { kind: 'closed', lastFailure: 'MCP tool echo timed out after 5s' };
const open: BreakerStatus = { kind: 'open', retryAt: 15_000, retryInMs: 10_000, lastFailure: 'MCP tool echo timed out after 5s' };
const due: BreakerStatus = { kind: 'halfOpen', trialInFlight: false, lastFailure: 'MCP tool echo timed out after 5s' };
const trial: BreakerStatus = { kind: 'halfOpen', trialInFlight: true, lastFailure: 'MCP tool echo timed out after 5s' };

type Shown = Omit<ServerStatus, 'name' | 'warnings'>;

describe('toServerStatus: a server is shown by its last outcome', () => {
  it.each<[string, ConnectionView, BreakerStatus, Shown]>([
    ['never started', { kind: 'idle' }, closed, { state: 'idle', tools: [] }],
    ['connected, last call fine', running, closed, { state: 'connected', tools: ['echo'], pid: 7 }],
    [
      'refused at connect for want of a scope: needs more access, with the scope',
      {
        kind: 'needsSignIn',
        message: 'MCP server s needs more access (scope "read"): run blitz mcp login s to ask for it',
        cause: other,
        scope: 'read',
      },
      closed,
      {
        state: 'needsMoreAccess',
        error: 'MCP server s needs more access (scope "read"): run blitz mcp login s to ask for it',
        scope: 'read',
        tools: [],
      },
    ],
    [
      'connected, but a call was refused for want of a scope: needs more access, with the scope',
      {
        ...running,
        moreAccess: { message: 'MCP server s needs more access (scope "admin"): run blitz mcp login s to ask for it', scope: 'admin' },
      },
      closed,
      {
        state: 'needsMoreAccess',
        error: 'MCP server s needs more access (scope "admin"): run blitz mcp login s to ask for it',
        scope: 'admin',
        tools: ['echo'],
        pid: 7,
      },
    ],
    [
      'connected, but the last call timed out: failed with the reason, tools still offered',
      running,
      failing,
      { state: 'failed', error: 'MCP tool echo timed out after 5s', tools: ['echo'], pid: 7 },
    ],
    [
      'stopped after a failure (restart): still failed until a call succeeds',
      { kind: 'idle' },
      failing,
      { state: 'failed', error: 'MCP tool echo timed out after 5s', tools: [] },
    ],
    [
      'exited: the exit (with its stderr) is the reason',
      exited,
      failing,
      { state: 'failed', error: 'MCP server s exited with code 1', tools: [] },
    ],
    [
      'paused while running: the last failure is the reason',
      running,
      open,
      { state: 'paused', retryAt: 15_000, error: 'MCP tool echo timed out after 5s', tools: [] },
    ],
    ['paused after an exit', exited, open, { state: 'paused', retryAt: 15_000, error: 'MCP server s exited with code 1', tools: [] }],
    ['pause over, trial about to run', running, due, { state: 'paused', error: 'MCP tool echo timed out after 5s', tools: [] }],
    ['trial ping in flight', running, trial, { state: 'paused', error: 'MCP tool echo timed out after 5s', tools: [] }],
    ['trial start in flight', { kind: 'starting' }, trial, { state: 'starting', tools: [] }],
    ['trial start admitted, the process not yet spawned', exited, trial, { state: 'starting', tools: [] }],
    ['trial start admitted for a server never started', { kind: 'idle' }, trial, { state: 'starting', tools: [] }],
    ['pause over, the trial start not yet admitted', exited, due, { state: 'paused', error: 'MCP server s exited with code 1', tools: [] }],
    ['starting', { kind: 'starting' }, closed, { state: 'starting', tools: [] }],
    [
      'a trial that found the sign-in gone needs sign-in',
      { kind: 'needsSignIn', message: 'sign in', cause: other },
      trial,
      { state: 'needsSignIn', error: 'sign in', tools: [] },
    ],
    [
      'needs sign-in is not a failure the breaker retries',
      { kind: 'needsSignIn', message: 'sign in', cause: other },
      closed,
      { state: 'needsSignIn', error: 'sign in', tools: [] },
    ],
    [
      'cannot start at all',
      { kind: 'failed', message: 'env ${X} is not set', cause: other },
      closed,
      { state: 'failed', error: 'env ${X} is not set', tools: [] },
    ],
  ])('%s', (_name, view, breaker, shown) => {
    // The words for the error are explainCause's, tested below and in explain-cause.test.ts.
    const { causeCode: _code, cause: _cause, remedy: _remedy, ...status } = toServerStatus('s', false, view, breaker, []);
    expect(status).toEqual({ name: 's', warnings: [], ...shown });
  });

  it("carries the error's cause and remedy in the vocabulary's words, from the view's facts or the breaker's", () => {
    const refused: ConnectionView = {
      kind: 'failed',
      message: 'MCP server s at http://127.0.0.1:9/mcp failed to initialize: fetch failed (ECONNREFUSED)',
      cause: { code: 'CONNECTION_REFUSED', where: '127.0.0.1:9' },
    };
    expect(toServerStatus('s', false, refused, closed, [])).toMatchObject({
      state: 'failed',
      causeCode: 'CONNECTION_REFUSED',
      cause: 'connection refused at 127.0.0.1:9',
      remedy: 'is the server running? Start it, or fix its url',
    });
    const timedOut: BreakerStatus = { ...open, lastCause: { code: 'CALL_TIMEOUT', after: '5s' } };
    expect(toServerStatus('s', false, running, timedOut, [])).toMatchObject({
      state: 'paused',
      error: 'MCP tool echo timed out after 5s',
      causeCode: 'CALL_TIMEOUT',
      cause: 'it did not answer within 5s',
    });
    expect(toServerStatus('s', false, running, closed, [])).not.toHaveProperty('cause');
  });

  it('disabled wins over everything', () => {
    expect(toServerStatus('s', true, running, open, ['w'])).toEqual({ name: 's', state: 'disabled', tools: [], warnings: ['w'] });
  });
});
