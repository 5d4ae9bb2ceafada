import type { GlobalServerStatus, Notice } from '@blitz/client';
import { describe, expect, it } from 'vitest';
import { STABLE_MS, toTell, type ToldServers } from './notification-policy.js';

const T0 = Date.parse('2026-12-02T12:00:00.000Z');
let id = 0;
const notice = (kind: Notice['kind'], cause = 'it exited with code 1: Error: boom', server = 'flaky'): Notice => ({
  id: ++id,
  time: new Date(T0).toISOString(),
  server,
  kind,
  message: `MCP server ${server} ${kind}`,
  ...(kind === 'recovered' ? {} : { cause, causeCode: 'EXITED' }),
});
const status = (state: GlobalServerStatus['state'], name = 'flaky'): GlobalServerStatus => ({
  name,
  enabled: state !== 'disabled',
  transport: 'stdio',
  state,
});

/** Feeds polls in order, each `[notices, state of the server, ms since the last poll]`; returns the words told. */
function run(
  polls: Array<[Notice[], GlobalServerStatus['state'], number?]>,
  told: ToldServers = {},
): { words: string[]; told: ToldServers } {
  let now = T0;
  let state = told;
  const words: string[] = [];
  for (const [notices, serverState, after = 2_000] of polls) {
    now += after;
    const result = toTell(state, notices, [status(serverState)], now);
    state = result.told;
    words.push(...result.tell.map((t) => `${t.notice.server} ${t.word ?? t.notice.kind}`));
  }
  return { words, told: state };
}

describe('toTell: notify on changes a person should act on, once (issue 29.4)', () => {
  it('a server that crashes on every call is one failure and one "keeps failing", not a stream', () => {
    const flapping = Array.from({ length: 6 }, (): Array<[Notice[], GlobalServerStatus['state']]> => [
      [[notice('recovered')], 'connected'],
      [[notice('failed')], 'failed'],
    ]).flat();
    const { words } = run([[[notice('failed')], 'failed'], ...flapping]);
    expect(words).toEqual(['flaky failed', 'flaky recovered', 'flaky keeps failing']);
    // Once it held, that is told, and the next failure is news again.
    const held = run([
      [[notice('failed')], 'failed'],
      ...flapping,
      [[notice('recovered')], 'connected'],
      [[], 'connected', STABLE_MS],
      [[notice('failed')], 'failed'],
    ]);
    expect(held.words).toEqual(['flaky failed', 'flaky recovered', 'flaky keeps failing', 'flaky recovered', 'flaky failed']);
  });

  it('a pause is told once with its reason; the same failure after a daemon or tray restart tells nothing', () => {
    const first = run([
      [[notice('failed')], 'failed'],
      [[notice('paused')], 'paused'],
      [[notice('paused')], 'paused'],
    ]);
    expect(first.words).toEqual(['flaky failed', 'flaky paused']);
    // A new daemon (or tray) reports the failure that never went away: the told state was kept.
    expect(run([[[notice('failed'), notice('paused')], 'paused']], first.told).words).toEqual([]);
    // Another cause is news.
    const failedOnly = run([[[notice('failed')], 'failed']]).told;
    expect(run([[[notice('failed', 'connection refused at 127.0.0.1:9')], 'failed']], failedOnly).words).toEqual(['flaky failed']);
  });

  it('a recovery is told once, also one seen only as connected again (an edit, a new daemon)', () => {
    expect(
      run([
        [[notice('failed')], 'failed'],
        [[notice('recovered')], 'connected'],
        [[], 'connected', STABLE_MS],
      ]).words,
    ).toEqual(['flaky failed', 'flaky recovered']);
    expect(
      run([
        [[notice('failed')], 'failed'],
        [[], 'connected'],
        [[notice('recovered')], 'connected'],
        [[], 'connected', STABLE_MS],
      ]).words,
    ).toEqual(['flaky failed', 'flaky recovered']);
    // Nothing was told, so no recovery either.
    expect(
      run([
        [[notice('recovered')], 'connected'],
        [[], 'connected', STABLE_MS],
      ]).words,
    ).toEqual([]);
  });

  it('a server switched off or removed is forgotten, untold', () => {
    const { told } = run([[[notice('failed')], 'failed']]);
    expect(toTell(told, [], [status('disabled')], T0 + STABLE_MS * 2)).toEqual({ tell: [], told: {} });
    expect(toTell(told, [], [], T0 + STABLE_MS * 2)).toEqual({ tell: [], told: {} });
  });

  it('a server that needs sign-in is told once, with what to do, and again only when it needs it anew', () => {
    const { words, told } = run([
      [[], 'needsSignIn'],
      [[], 'needsSignIn'],
      [[], 'needsSignIn', STABLE_MS * 2],
    ]);
    expect(words).toEqual(['flaky needs sign-in']);
    // Kept across a tray restart: not told again.
    expect(run([[[], 'needsSignIn']], told).words).toEqual([]);
    // Signed in (connected, no "working again"), then signed out: told again.
    expect(
      run(
        [
          [[], 'connected'],
          [[], 'needsSignIn'],
        ],
        told,
      ).words,
    ).toEqual(['flaky needs sign-in']);
    const shown = toTell({}, [], [status('needsSignIn')], T0).tell[0]!;
    expect(shown.notice.remedy).toContain('blitz mcp login flaky');
  });
});
