import { describe, expect, it } from 'vitest';
import { buildSetChanges, describeChanges } from './set-changes.js';

describe('buildSetChanges', () => {
  it.each([
    ['a prefix and a timeout', { prefix: 'gh', timeout: '60' }, { prefix: 'gh', timeout_seconds: 60 }],
    ['lists, trimmed', { agents: 'main, review', tools: 'a,b' }, { agents: ['main', 'review'], tools: ['a', 'b'] }],
    ['no roots, no sandbox', { roots: false as const, sandbox: false }, { roots: false, sandbox: false }],
    [
      'defaults written by removing the field',
      { sandbox: true, share: false, sampling: false },
      { sandbox: undefined, share: undefined, sampling: undefined },
    ],
    ['an idle timeout, 0 for never', { idleTimeout: '0' }, { idle_timeout_seconds: 0 }],
    [
      'unset by option name or settings.toml name',
      { unset: ['timeout', 'startup_timeout_seconds', 'sandbox-write'] },
      { timeout_seconds: undefined, startup_timeout_seconds: undefined, sandbox_write: undefined },
    ],
  ])('%s', (_, opts, changes) => {
    expect(buildSetChanges(opts)).toEqual(changes);
  });

  it.each([
    ['nothing', {}, /give at least one setting to change/],
    ['a bad timeout', { startupTimeout: '0' }, /^--startup-timeout must be a number of seconds \(at least 1\), not "0"$/],
    [
      'a negative idle timeout',
      { idleTimeout: '-1' },
      /^--idle-timeout must be a number of seconds \(0 never stops the server\), not "-1"$/,
    ],
    ['set and unset at once', { agents: 'main', unset: ['agents'] }, /agents is both set and unset/],
    [
      'an unknown field',
      { unset: ['url'] },
      /--unset "url": not a field blitz mcp set changes; use one of prefix, agents, tools, timeout, startup-timeout, idle-timeout/,
    ],
  ])('refuses %s', (_, opts, message) => {
    expect(() => buildSetChanges(opts)).toThrow(message);
  });

  it('describes what it did as settings.toml spells it', () => {
    expect(describeChanges({ prefix: 'gh', agents: ['main'], tools: undefined })).toBe(
      'set prefix = "gh", agents = ["main"]; removed tools',
    );
  });
});
