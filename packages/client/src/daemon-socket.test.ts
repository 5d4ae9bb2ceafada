import { describe, expect, it } from 'vitest';
import { daemonSocketPath } from './daemon-socket.js';

describe('daemonSocketPath', () => {
  it('a Unix domain socket beside daemon.json on Linux and macOS', () => {
    expect(daemonSocketPath('/home/ann/.config/blitz', 'linux')).toBe('/home/ann/.config/blitz/state/mcp.sock');
    expect(daemonSocketPath('/Users/ann/Library/Application Support/blitz', 'darwin')).toBe(
      '/Users/ann/Library/Application Support/blitz/state/mcp.sock',
    );
  });

  it('none when the path is past what bind(2) takes: 107 bytes on Linux, 103 elsewhere', () => {
    const home = (bytes: number) => `/${'h'.repeat(bytes - '/'.length - '/state/mcp.sock'.length)}`;
    expect(daemonSocketPath(home(107), 'linux')).toHaveLength(107);
    expect(daemonSocketPath(home(108), 'linux')).toBeUndefined();
    expect(daemonSocketPath(home(103), 'darwin')).toHaveLength(103);
    expect(daemonSocketPath(home(104), 'darwin')).toBeUndefined();
    // Bytes, not characters.
    expect(daemonSocketPath(`/${'ü'.repeat(46)}`, 'linux')).toBeUndefined();
  });

  it('a named pipe named after the home on Windows, its backslashes made slashes', () => {
    expect(daemonSocketPath('C:\\Users\\ann\\AppData\\Roaming\\blitz', 'win32')).toBe(
      '\\\\.\\pipe\\blitz-C:/Users/ann/AppData/Roaming/blitz',
    );
    expect(daemonSocketPath(`C:\\${'x'.repeat(240)}`, 'win32')).toBeUndefined();
  });
});
