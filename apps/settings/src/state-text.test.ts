import { describe, expect, it } from 'vitest';
import type { GlobalServerStatus, ServerState } from '@blitz/client/api-types';
import { stateText } from './state-text.js';

const NOW = Date.parse('2026-12-01T10:00:00.000Z');

function status(state: ServerState, more: Partial<GlobalServerStatus> = {}): GlobalServerStatus {
  return { name: 'fs', enabled: state !== 'disabled', transport: 'stdio', state, ...more };
}

describe('stateText', () => {
  it.each<[ServerState, string]>([
    ['disabled', 'off'],
    ['idle', 'idle (starts when a client lists its tools)'],
    ['starting', 'starting…'],
    ['connected', 'connected'],
    ['needsSignIn', 'needs sign-in'],
  ])('says %s as "%s"', (state, text) => {
    expect(stateText(status(state), NOW)).toBe(text);
  });

  it('says a server stopped after its idle timeout is idle to save memory (issue 32.1)', () => {
    expect(stateText(status('idle', { reaped: true }), NOW)).toBe('idle (stopped to save memory)');
  });

  it('says failed; the error is not folded into the state (the page shows it beside)', () => {
    expect(stateText(status('failed', { error: 'exited with code 3 before it answered' }), NOW)).toBe('failed');
  });

  it('counts a pause down from its retry time, rounded up to the second', () => {
    expect(stateText(status('paused', { retryAt: new Date(NOW + 15_000).toISOString() }), NOW)).toBe('paused, retrying in 15s');
    expect(stateText(status('paused', { retryAt: new Date(NOW + 150_000).toISOString() }), NOW)).toBe('paused, retrying in 2m30s');
    expect(stateText(status('paused', { retryAt: new Date(NOW + 200).toISOString() }), NOW)).toBe('paused, retrying in 1s');
    // The same status read later says less time left: the page re-renders with its clock.
    expect(stateText(status('paused', { retryAt: new Date(NOW + 15_000).toISOString() }), NOW + 10_000)).toBe('paused, retrying in 5s');
  });

  it('says a pause whose retry time has come, or is unknown, without a negative delay', () => {
    expect(stateText(status('paused', { retryAt: new Date(NOW - 5_000).toISOString() }), NOW)).toBe('paused, retrying in 0s');
    expect(stateText(status('paused'), NOW)).toBe('paused');
  });

  it('names the scope a server asks for (the Sign in button is on its view)', () => {
    expect(stateText(status('needsMoreAccess', { transport: 'http', scope: 'repo:write' }), NOW)).toBe(
      'needs more access (scope "repo:write")',
    );
    expect(stateText(status('needsMoreAccess', { transport: 'http' }), NOW)).toBe('needs more access');
  });
});
