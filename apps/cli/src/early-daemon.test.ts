import { describe, expect, it } from 'vitest';
import { connectWorkspace } from './early-daemon.js';

describe('connectWorkspace', () => {
  it('is the current folder without --workspace', () => {
    expect(connectWorkspace([])).toBe('.');
    expect(connectWorkspace(['--agent', 'reviewer', '--mode=read-only'])).toBe('.');
  });

  it('is the last --workspace, spelled either way', () => {
    expect(connectWorkspace(['--workspace', '/a'])).toBe('/a');
    expect(connectWorkspace(['--workspace=/a', '--agent', 'x', '--workspace', 'b'])).toBe('b');
  });

  it('is undefined for anything connect might refuse or answer itself, so no daemon starts early', () => {
    expect(connectWorkspace(['--help'])).toBeUndefined();
    expect(connectWorkspace(['-h'])).toBeUndefined();
    expect(connectWorkspace(['--workspace'])).toBeUndefined();
    expect(connectWorkspace(['--workspace', '--agent', 'x'])).toBeUndefined();
    expect(connectWorkspace(['--unknown', 'x'])).toBeUndefined();
    expect(connectWorkspace(['extra'])).toBeUndefined();
    expect(connectWorkspace(['--mode', 'write'])).toBeUndefined();
    expect(connectWorkspace(['--mode=plan'])).toBeUndefined();
  });
});
