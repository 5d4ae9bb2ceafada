import { describe, expect, it } from 'vitest';
import { withServerAdded, withServerFields, withServerRemoved, withServerReplaced } from './intended-settings.js';

const settings = () => ({
  daemon: { port: 1 },
  mcp: {
    servers: [
      { name: 'a', command: 'x', enabled: false },
      { name: 'b', url: 'u' },
    ],
  },
});

describe('intended settings', () => {
  it('adds an entry without undefined fields, creating mcp.servers when needed', () => {
    expect(withServerAdded({}, { name: 'n', command: 'c', extra: { K: 'v', L: undefined }, disabled: undefined })).toEqual({
      mcp: { servers: [{ name: 'n', command: 'c', extra: { K: 'v' } }] },
    });
  });

  it('removes the array with its last entry', () => {
    expect(withServerRemoved({ mcp: { servers: [{ name: 'a' }], x: 1 } }, 'a')).toEqual({ mcp: { x: 1 } });
  });

  it('replaces in place', () => {
    expect(withServerReplaced(settings(), 'a', { name: 'z', url: 'v' })['mcp']).toEqual({
      servers: [
        { name: 'z', url: 'v' },
        { name: 'b', url: 'u' },
      ],
    });
  });

  it('sets fields under the spelling the entry has, else the field, and removes every spelling', () => {
    const servers = (s: Record<string, unknown>) => (s['mcp'] as { servers: unknown[] }).servers;
    const codex = { mcp: { servers: [{ name: 'a', command: 'x', tool_timeout_sec: 5, enabled_tools: ['t'] }] } };
    expect(servers(withServerFields(codex, 'a', { timeout_seconds: 9, prefix: 'p' }))[0]).toEqual({
      name: 'a',
      command: 'x',
      tool_timeout_sec: 9,
      enabled_tools: ['t'],
      prefix: 'p',
    });
    expect(servers(withServerFields(codex, 'a', { tools: undefined, enabled: true }))[0]).toEqual({
      name: 'a',
      command: 'x',
      tool_timeout_sec: 5,
      enabled: true,
    });
    expect(servers(withServerFields(settings(), 'b', { disabled: true }))[1]).toEqual({ name: 'b', url: 'u', disabled: true });
  });

  it('leaves its argument alone', () => {
    const before = settings();
    withServerRemoved(before, 'a');
    withServerFields(before, 'b', { disabled: true, url: undefined });
    withServerAdded(before, { name: 'c' });
    expect(before).toEqual(settings());
  });

  it('reports an unknown name as NOT_FOUND', () => {
    expect(() => withServerRemoved(settings(), 'zz', 'f.toml')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', message: 'no MCP server named "zz" in f.toml' }),
    );
  });
});
