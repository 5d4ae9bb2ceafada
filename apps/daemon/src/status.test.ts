import { describe, expect, it } from 'vitest';
import type { ServerConfig, ServerStatus } from '@blitz/core';
import { SERVER_STATES } from '@blitz/server-state';
import { globalServerStatus } from './status.js';

const config = (over: Partial<ServerConfig> = {}): ServerConfig => ({
  name: 'gh',
  transport: { kind: 'stdio', command: 'x', args: [], env: {} },
  autoApprove: false,
  sandbox: true,
  agents: [],
  timeoutSeconds: 300,
  startupTimeoutSeconds: 30,
  disabled: false,
  sampling: false,
  share: false,
  source: { kind: 'global', file: '/s.toml' },
  ...over,
});
const running = (state: ServerStatus['state'], extra: Partial<ServerStatus> = {}): ServerStatus => ({
  name: 'gh',
  state,
  tools: [],
  warnings: [],
  ...extra,
});

describe('globalServerStatus', () => {
  it.each([
    ['no workspace runs it', [], 'idle'],
    ['one connected', [running('connected')], 'connected'],
    ['failed beats connected', [running('connected'), running('failed', { error: 'boom' })], 'failed'],
    ['paused beats failed', [running('failed'), running('paused', { retryAt: 0 })], 'paused'],
    ['starting beats idle', [running('idle'), running('starting')], 'starting'],
  ] as const)('%s', (_, states, expected) => {
    expect(globalServerStatus(config(), states).state).toBe(expected);
  });

  // A state missing from the ranking would sort first and win over everything.
  it.each(SERVER_STATES.filter((s) => s !== 'paused'))('paused wins over %s: every state is ranked', (state) => {
    expect(globalServerStatus(config(), [running(state), running('paused', { retryAt: 0 })]).state).toBe('paused');
    expect(globalServerStatus(config(), [running('paused', { retryAt: 0 }), running(state)]).state).toBe('paused');
  });

  it('an idle server stopped to save memory in a workspace says so; one running anywhere is not idle (issue 32.1)', () => {
    expect(globalServerStatus(config(), [running('idle'), running('idle', { reaped: true })])).toMatchObject({
      state: 'idle',
      reaped: true,
    });
    expect(globalServerStatus(config(), [running('idle')]).reaped).toBeUndefined();
    expect(globalServerStatus(config(), [running('connected'), running('idle', { reaped: true })]).reaped).toBeUndefined();
  });

  it('a disabled server is disabled whatever runs', () => {
    expect(globalServerStatus(config({ disabled: true }), [running('connected')])).toEqual({
      name: 'gh',
      enabled: false,
      transport: 'stdio',
      state: 'disabled',
    });
  });

  it('carries the error and the retry time of the worst state', () => {
    expect(
      globalServerStatus(config(), [running('connected'), running('paused', { error: 'timed out', retryAt: Date.UTC(2026, 0, 1) })]),
    ).toEqual({
      name: 'gh',
      enabled: true,
      transport: 'stdio',
      state: 'paused',
      error: 'timed out',
      retryAt: '2026-01-01T00:00:00.000Z',
    });
  });
});
