import { describe, expect, it } from 'vitest';
import { openCommand, openFile } from './open-file.js';

describe('opening settings.toml in the default editor', () => {
  it('uses the platform’s opener', () => {
    expect(openCommand('/h/settings.toml', 'linux')).toEqual({ command: 'xdg-open', args: ['/h/settings.toml'] });
    expect(openCommand('/h/settings.toml', 'darwin')).toEqual({ command: 'open', args: ['-t', '/h/settings.toml'] });
    expect(openCommand('C:\\h\\settings.toml', 'win32')).toEqual({ command: 'cmd.exe', args: ['/d', '/s', '/c', '"start "" "C:\\h\\settings.toml""'], verbatim: true });
  });

  it.runIf(process.platform === 'linux')('rejects with a clear error when the opener fails', async () => {
    await expect(openFile('/nonexistent/blitz/settings.toml', 'linux')).rejects.toThrow(/xdg-open/);
  });
});
