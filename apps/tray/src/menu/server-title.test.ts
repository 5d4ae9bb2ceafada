import { describe, expect, it } from 'vitest';
import { serverTitle, shortError, wrapText } from './server-title.js';

describe('server titles', () => {
  it('says what needs attention, nothing else', () => {
    const now = 1_000_000;
    const base = { name: 'github', enabled: true, transport: 'stdio' as const };
    expect(serverTitle({ ...base, state: 'connected' }, now)).toBe('github');
    expect(serverTitle({ ...base, state: 'idle' }, now)).toBe('github');
    // Issue 32.1: stopped after its idle timeout; the next call starts it.
    expect(serverTitle({ ...base, state: 'idle', reaped: true }, now)).toBe('github — idle (stopped to save memory)');
    expect(serverTitle({ ...base, state: 'paused', retryAt: new Date(now + 90_500).toISOString() }, now)).toBe(
      'github — paused, retrying in 1m31s',
    );
    expect(serverTitle({ ...base, state: 'paused' }, now)).toBe('github — paused, retrying now');
    expect(serverTitle({ ...base, state: 'failed' }, now)).toBe('github — failed');
    expect(serverTitle({ ...base, state: 'needsSignIn' }, now)).toBe('github — needs sign-in');
    expect(serverTitle({ ...base, state: 'needsMoreAccess', scope: 'repo admin:org' }, now)).toBe(
      'github — needs more access (repo admin:org)',
    );
    // Issue 31: tools held back since their definitions changed.
    expect(serverTitle({ ...base, state: 'connected', review: [{ tool: 'read', change: 'changed' }] }, now)).toBe(
      'github — tools to review',
    );
  });

  it('keeps an error to its first non-empty line, squeezed and cut', () => {
    expect(shortError('\n  spawn   npx ENOENT \nstack')).toBe('spawn npx ENOENT');
    expect(shortError('x'.repeat(100), 10)).toBe('xxxxxxxxx…');
  });

  it("names an exit's cause, the last stderr line, and drops the server's name the title already has", () => {
    const exit = 'MCP server flaky exited with code 1; its stderr ends with:\nstarting\nflaky: database not reachable\n';
    expect(shortError(exit, 60, 'flaky')).toBe('exited with code 1: flaky: database not reachable');
    expect(serverTitle({ name: 'flaky', enabled: true, transport: 'stdio', state: 'failed', error: exit }, 0)).toBe(
      'flaky — failed: exited with code 1: flaky: database not reachable',
    );
    expect(shortError('MCP tool hang timed out after 2s', 60, 'slow')).toBe('MCP tool hang timed out after 2s');
    expect(shortError('MCP server other failed', 60, 'flaky')).toBe('MCP server other failed');
  });

  it("shows the daemon's cause rather than the raw error (issue 29.2)", () => {
    const node =
      "MCP server gone exited with code 1; its stderr ends with:\nError: Cannot find module '/srv/x.js'\n    at Module._resolveFilename (node:internal)\nNode.js v20.20.2";
    const status = {
      name: 'gone',
      enabled: true,
      transport: 'stdio',
      state: 'failed',
      error: node,
      causeCode: 'EXITED',
      cause: "it exited with code 1: Error: Cannot find module '/srv/x.js'",
      remedy: 'see its output: blitz mcp get gone',
    } as const;
    expect(serverTitle(status, 0)).toBe("gone — failed: it exited with code 1: Error: Cannot find module '/srv/x.js'");
    expect(serverTitle(status, 0)).not.toContain('Node.js');
  });

  it.each<[string, string, number, string[]]>([
    ['fits', 'a b c', 10, ['a b c']],
    ['breaks at spaces', 'one two three four', 9, ['one two', 'three', 'four']],
    ['squeezes white space', ' a \n\t b ', 10, ['a b']],
    ['splits a word longer than a line', 'abcdefghijkl', 5, ['abcde', 'fghij', 'kl']],
    ['a long word after text fills the line first', 'see /a/very/long/path/name', 12, ['see /a/very/', 'long/path/na', 'me']],
    ['empty', '  ', 5, []],
  ])('wrapText: %s', (_name, text, width, lines) => {
    expect(wrapText(text, width)).toEqual(lines);
    expect(lines.every((l) => l.length <= width)).toBe(true);
  });
});
