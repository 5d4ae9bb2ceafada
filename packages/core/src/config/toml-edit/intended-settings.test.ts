import { describe, expect, it } from 'vitest';
import { withServerAdded, withServerDisabled, withServerRemoved, withServerReplaced } from './intended-settings.js';

const settings = () => ({
  daemon: { port: 1 },
  mcp: { servers: [{ name: 'a', command: 'x', enabled: false }, { name: 'b', url: 'u' }] },
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
    expect(withServerReplaced(settings(), 'a', { name: 'z', url: 'v' })['mcp']).toEqual({ servers: [{ name: 'z', url: 'v' }, { name: 'b', url: 'u' }] });
  });

  it('sets the flags the entry has, else adds disabled = true', () => {
    const servers = (s: Record<string, unknown>) => (s['mcp'] as { servers: unknown[] }).servers;
    expect(servers(withServerDisabled(settings(), 'a', true))[0]).toEqual({ name: 'a', command: 'x', enabled: false });
    expect(servers(withServerDisabled(settings(), 'a', false))[0]).toEqual({ name: 'a', command: 'x', enabled: true });
    expect(servers(withServerDisabled(settings(), 'b', true))[1]).toEqual({ name: 'b', url: 'u', disabled: true });
    expect(servers(withServerDisabled(settings(), 'b', false))[1]).toEqual({ name: 'b', url: 'u' });
  });

  it('leaves its argument alone', () => {
    const before = settings();
    withServerRemoved(before, 'a');
    withServerDisabled(before, 'b', true);
    withServerAdded(before, { name: 'c' });
    expect(before).toEqual(settings());
  });

  it('reports an unknown name as NOT_FOUND', () => {
    expect(() => withServerRemoved(settings(), 'zz', 'f.toml')).toThrow(expect.objectContaining({ code: 'NOT_FOUND', message: 'no MCP server named "zz" in f.toml' }));
  });
});
