import { describe, expect, it } from 'vitest';
import { isBlitzError } from '../errors/blitz-error.js';
import {
  approvalDetail,
  decide,
  howToAllow,
  patternMatches,
  permissionKey,
  promptPermissionKey,
  refuseIfDenied,
  resourcePermissionKey,
} from './approval-policy.js';

const none = { allow: [], ask: [], deny: [] };

describe('patternMatches', () => {
  it.each([
    ['mcp:github:*', 'mcp:github:create_issue', true],
    ['mcp:github:*', 'mcp:gitlab:create_issue', false],
    ['mcp:*:delete_*', 'mcp:fs:delete_file', true],
    ['mcp:*:delete_*', 'mcp:fs:read_file', false],
    ['mcp:github', 'mcp:github:anything', true],
    ['mcp:*', 'mcp:fs:read', true],
    ['mcp:git.hub:x', 'mcp:gitXhub:x', false],
    ['mcp:fs:read', 'mcp:fs:read_file', false],
  ])('%s ~ %s → %s', (pattern, key, expected) => {
    expect(patternMatches(pattern, key)).toBe(expected);
  });
});

describe('decide', () => {
  const key = permissionKey('github', 'create_issue');
  it.each([
    ['nothing said: ask', none, false, 'ask'],
    ['auto_approve: allow', none, true, 'allow'],
    ['an allow rule: allow', { ...none, allow: ['mcp:github:*'] }, false, 'allow'],
    ['a deny rule beats everything', { allow: ['mcp:github:*'], ask: [], deny: ['mcp:github:create_*'] }, true, 'deny'],
    ['an ask rule beats auto_approve (MCP-43)', { ...none, ask: ['mcp:github:*'] }, true, 'ask'],
    ['an ask rule beats an allow rule', { ...none, allow: ['mcp:github:create_issue'], ask: ['mcp:*'] }, false, 'ask'],
    ['another server’s rule does not apply', { ...none, allow: ['mcp:gitlab:*'] }, false, 'ask'],
  ] as const)('%s', (_, permissions, autoApprove, expected) => {
    expect(decide({ allow: [...permissions.allow], ask: [...permissions.ask], deny: [...permissions.deny] }, key, autoApprove).kind).toBe(
      expected,
    );
  });

  it('says which rule denied or allowed (the audit log names it)', () => {
    expect(decide({ ...none, deny: ['mcp:*:create_*'] }, key, false)).toEqual({
      kind: 'deny',
      why: 'denied by the rule "mcp:*:create_*" in [permissions] deny',
      rule: 'mcp:*:create_*',
    });
    expect(decide({ ...none, allow: ['mcp:github:*'] }, key, false)).toEqual({
      kind: 'allow',
      why: 'allowed by the rule "mcp:github:*"',
      rule: 'mcp:github:*',
    });
    expect(decide(none, key, true)).toEqual({ kind: 'allow', why: 'the server is auto_approve' });
  });
});

describe('approvalDetail', () => {
  it('names the tool and server, then the arguments sorted as key=value lines', () => {
    expect(approvalDetail('create_issue', 'github', { title: 'Bug', body: 'x', labels: ['a', 'b'], n: 2 })).toBe(
      'create_issue (MCP server "github")\nbody=x\nlabels=["a","b"]\nn=2\ntitle=Bug',
    );
  });

  it('shows what a caller wrote as one line each: line breaks, control and bidirectional characters escaped (issue 25.12)', () => {
    expect(approvalDetail('run', 'sh', { cmd: 'ls\nRun echo (MCP server "sh")\r\tx\u0007\u202eevil\u2028' })).toBe(
      'run (MCP server "sh")\ncmd=ls\\nRun echo (MCP server "sh")\\r\\tx\\u{7}\\u{202e}evil\\u{2028}',
    );
    expect(approvalDetail('t\nx', 's\ny', { 'a\nb': 1 })).toBe('t\\nx (MCP server "s\\ny")\na\\nb=1');
  });

  it('cuts a value at 200 characters saying its length, keeps surrogate pairs whole, and lists at most 20 arguments', () => {
    expect(approvalDetail('t', 's', { v: 'y'.repeat(5_000) })).toBe(`t (MCP server "s")\nv=${'y'.repeat(200)}… (5,000 characters)`);
    expect(approvalDetail('t', 's', { v: `${'y'.repeat(199)}😀z` }).split('=')[1]).toBe(`${'y'.repeat(199)}… (202 characters)`);
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i]));
    const lines = approvalDetail('t', 's', many).split('\n');
    expect([lines.length, lines[20], lines.at(-1)]).toEqual([22, 'k19=19', '… and 5 more arguments']);
    expect(approvalDetail('t', 's', { big: { a: 'z'.repeat(300) } }).split('\n')[1]).toMatch(/^big=\{"a":"z+… \(308 characters\)$/);
  });

  it('says how to allow', () => {
    expect(howToAllow('github', 'create_issue')).toBe(
      'to allow it, run: blitz mcp approve github create_issue (adds "mcp:github:create_issue" to [permissions] allow in settings.toml), or blitz mcp approve github for every tool of the server (auto_approve = true)',
    );
    expect(howToAllow('github', "it's")).toContain("blitz mcp approve github 'it'\\''s'");
  });

  it("offers a pattern, not auto_approve, for a project's server (blitz mcp approve NAME edits only settings.toml's own entries)", () => {
    expect(howToAllow('local', 'build', undefined, false)).toBe(
      'to allow it, run: blitz mcp approve local build (adds "mcp:local:build" to [permissions] allow in settings.toml), or blitz mcp approve local \'*\' for every tool of the server (adds "mcp:local:*")',
    );
  });

  it('names the ask rule, not blitz mcp approve, when an ask rule is what asks (approve would change nothing)', () => {
    const permissions = { allow: ['mcp:github:create_issue'], ask: ['mcp:github:create_*'], deny: [] };
    expect(decide(permissions, 'mcp:github:create_issue', true)).toEqual({ kind: 'ask', rule: 'mcp:github:create_*' });
    expect(decide(none, 'mcp:github:create_issue', false)).toEqual({ kind: 'ask' });
    const how = howToAllow('github', 'create_issue', 'mcp:github:create_*');
    expect(how).toBe(
      'it is asked about by the rule "mcp:github:create_*" in [permissions] ask, which blitz mcp approve and auto_approve do not override; to run it without asking, remove that rule from [permissions] ask in settings.toml, or call it from a client that can be asked',
    );
    expect(how).not.toContain('run: blitz mcp approve');
  });
});

describe('the keys of what is not a tool call (issue 25.3)', () => {
  it("a resource read is its read_mcp_resource tool's; a prompt is mcp:<server>:prompt:<name>; mcp:<server>:* and mcp:<server> cover both", () => {
    expect([resourcePermissionKey('fx'), promptPermissionKey('fx', 'greet')]).toEqual(['mcp:fx:read_mcp_resource', 'mcp:fx:prompt:greet']);
    for (const pattern of ['mcp:fx:*', 'mcp:fx', 'mcp:*']) {
      expect([patternMatches(pattern, resourcePermissionKey('fx')), patternMatches(pattern, promptPermissionKey('fx', 'greet'))]).toEqual([
        true,
        true,
      ]);
    }
    expect(patternMatches('mcp:fx:prompt:*', promptPermissionKey('fx', 'greet'))).toBe(true);
    expect(patternMatches('mcp:fx:prompt:*', permissionKey('fx', 'echo'))).toBe(false);
    expect(patternMatches('mcp:fx:greet', promptPermissionKey('fx', 'greet'))).toBe(false);
  });

  it('refuseIfDenied throws PERMISSION_DENIED naming the request and the rule; no permissions or no rule, nothing', () => {
    const permissions = { ...none, deny: ['mcp:fx:prompt:*'] };
    let thrown: unknown;
    try {
      refuseIfDenied(permissions, promptPermissionKey('fx', 'greet'), 'prompt fx__greet (MCP server "fx")');
    } catch (err) {
      thrown = err;
    }
    expect(isBlitzError(thrown, 'PERMISSION_DENIED') && thrown.message).toBe(
      'prompt fx__greet (MCP server "fx") was refused: denied by the rule "mcp:fx:prompt:*" in [permissions] deny',
    );
    expect(() => refuseIfDenied(permissions, resourcePermissionKey('fx'), 'x')).not.toThrow();
    expect(() => refuseIfDenied(undefined, resourcePermissionKey('fx'), 'x')).not.toThrow();
  });
});
