import { describe, expect, it } from 'vitest';
import { openCommand, openFile, openUrlCommand } from './open-file.js';

describe('opening settings.toml in the default editor', () => {
  it('uses the platform’s opener', () => {
    expect(openCommand('/h/settings.toml', 'linux')).toEqual({ command: 'xdg-open', args: ['/h/settings.toml'] });
    expect(openCommand('/h/settings.toml', 'darwin')).toEqual({ command: 'open', args: ['-t', '/h/settings.toml'] });
    expect(openCommand('C:\\h\\settings.toml', 'win32')).toEqual({
      command: 'cmd.exe',
      args: ['/d', '/s', '/c', '"start "" "C:\\h\\settings.toml""'],
      verbatim: true,
    });
  });

  it.runIf(process.platform === 'linux')('rejects with a clear error when the opener fails', async () => {
    await expect(openFile('/nonexistent/blitz/settings.toml', 'linux')).rejects.toThrow(/xdg-open/);
  });
});

describe('opening the settings page in the default browser', () => {
  it('uses the platform’s opener, with the address as one argument', () => {
    const url = 'http://127.0.0.1:4000/settings/?code=a-b_c';
    expect(openUrlCommand(url, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(openUrlCommand(url, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(openUrlCommand(url, 'win32')).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] });
  });
});
