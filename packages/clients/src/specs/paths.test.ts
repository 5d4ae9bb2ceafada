import { describe, expect, it } from 'vitest';
import type { Where } from '../where.js';
import { claudeCode } from './claude-code.js';
import { CLIENTS } from './index.js';

/** A machine of the given platform; `dirs` are the folders that exist there, with their names. */
function machine(platform: NodeJS.Platform, env: Record<string, string>, dirs: Record<string, string[]> = {}): Where {
  const home = platform === 'win32' ? 'C:\\Users\\ada' : platform === 'darwin' ? '/Users/ada' : '/home/ada';
  return {
    home,
    env: { ...(platform === 'win32' ? { USERPROFILE: home } : { HOME: home }), ...env },
    platform,
    listDir: (dir) => dirs[dir] ?? [],
  };
}

const files = (where: Where) => Object.fromEntries(CLIENTS.map((c) => [c.id, c.userFiles(where)]));

describe('user config files per platform', () => {
  it('Linux', () => {
    expect(files(machine('linux', {}))).toEqual({
      'claude-code': ['/home/ada/.claude.json'],
      'claude-desktop': ['/home/ada/.config/Claude/claude_desktop_config.json'],
      cursor: ['/home/ada/.cursor/mcp.json'],
      vscode: ['/home/ada/.config/Code/User/mcp.json'],
      windsurf: ['/home/ada/.codeium/windsurf/mcp_config.json'],
      codex: ['/home/ada/.codex/config.toml'],
      gemini: ['/home/ada/.gemini/settings.json'],
      zed: ['/home/ada/.config/zed/settings.json'],
      opencode: [
        '/home/ada/.config/opencode/opencode.json',
        '/home/ada/.config/opencode/opencode.jsonc',
        '/home/ada/.config/opencode/config.json',
      ],
    });
  });

  it('Linux with XDG_CONFIG_HOME, CODEX_HOME and CLAUDE_CONFIG_DIR', () => {
    const f = files(machine('linux', { XDG_CONFIG_HOME: '/xdg', CODEX_HOME: '/codex', CLAUDE_CONFIG_DIR: '/claude' }));
    expect([f['claude-code'], f.vscode, f.codex, f.zed, f.opencode![0]]).toEqual([
      ['/claude/.claude.json'],
      ['/xdg/Code/User/mcp.json'],
      ['/codex/config.toml'],
      ['/xdg/zed/settings.json'],
      '/xdg/opencode/opencode.json',
    ]);
  });

  it('macOS', () => {
    const f = files(machine('darwin', {}));
    expect(f['claude-desktop']).toEqual(['/Users/ada/Library/Application Support/Claude/claude_desktop_config.json']);
    expect(f.vscode).toEqual(['/Users/ada/Library/Application Support/Code/User/mcp.json']);
    expect(f.zed).toEqual(['/Users/ada/.config/zed/settings.json']);
    expect(f['claude-code']).toEqual(['/Users/ada/.claude.json']);
    expect(f.opencode![0]).toBe('/Users/ada/.config/opencode/opencode.json');
  });

  it('Windows', () => {
    const f = files(machine('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }));
    expect(f).toMatchObject({
      'claude-code': ['C:\\Users\\ada\\.claude.json'],
      'claude-desktop': ['C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json'],
      cursor: ['C:\\Users\\ada\\.cursor\\mcp.json'],
      vscode: ['C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json'],
      windsurf: ['C:\\Users\\ada\\.codeium\\windsurf\\mcp_config.json'],
      codex: ['C:\\Users\\ada\\.codex\\config.toml'],
      gemini: ['C:\\Users\\ada\\.gemini\\settings.json'],
      zed: ['C:\\Users\\ada\\AppData\\Roaming\\Zed\\settings.json'],
    });
  });

  it('Windows: the MSIX build of Claude Desktop reads its virtualised copy first, once the app has made it', () => {
    const packages = 'C:\\Users\\ada\\AppData\\Local\\Packages';
    const launched = `${packages}\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude`;
    const env = { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' };
    const desktop = (dirs: Record<string, string[]>) =>
      CLIENTS.find((c) => c.id === 'claude-desktop')!.userFiles(machine('win32', env, dirs));
    expect(
      desktop({ [packages]: ['Claude_pzs8sxrjxfjjc', 'Microsoft.Other_1'], [launched]: ['claude_desktop_config.json', 'logs'] }),
    ).toEqual([`${launched}\\claude_desktop_config.json`, 'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json']);
    // Installed but never started: its virtual folder does not exist yet, so %APPDATA% is it.
    expect(desktop({ [packages]: ['Claude_pzs8sxrjxfjjc'] })).toEqual([
      'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    ]);
  });
});

describe("Claude Code's local scope, per platform", () => {
  it('is kept under the project folder as Claude Code writes it: with / on Windows too, a POSIX path as it is', () => {
    const keys = (dir: string) => claudeCode.localScope!.keys(dir).map((k) => k.join(' > '));
    // Both drive-letter cases, as Claude Code writes either (a shell's C:, VS Code's c:): the upper first.
    expect(keys('C:\\Users\\ada\\app')).toEqual(['projects > C:/Users/ada/app > mcpServers', 'projects > c:/Users/ada/app > mcpServers']);
    expect(keys('c:\\Users\\ada\\app')).toEqual(['projects > C:/Users/ada/app > mcpServers', 'projects > c:/Users/ada/app > mcpServers']);
    expect(keys('D:/x')).toEqual(['projects > D:/x > mcpServers', 'projects > d:/x > mcpServers']);
    expect(keys('\\\\server\\share\\app')).toEqual(['projects > //server/share/app > mcpServers']);
    expect(keys('/home/ada/app')).toEqual(['projects > /home/ada/app > mcpServers']);
    // A backslash is a letter of a POSIX folder's name.
    expect(keys('/home/ada/a\\b')).toEqual(['projects > /home/ada/a\\b > mcpServers']);
  });
});
