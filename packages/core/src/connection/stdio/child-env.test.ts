import { describe, expect, it } from 'vitest';
import { baseEnv, childEnv } from './child-env.js';

const parent = {
  PATH: '/usr/bin',
  HOME: '/home/ann',
  USER: 'ann',
  LOGNAME: 'ann',
  LANG: 'en_GB.UTF-8',
  LC_ALL: 'C',
  LC_TIME: 'en_DK',
  TZ: 'Europe/Paris',
  TMPDIR: '/tmp/ann',
  TERM: 'xterm',
  SHELL: '/bin/zsh',
  GITHUB_TOKEN: 'ghp_secret',
  AWS_SECRET_ACCESS_KEY: 'aws',
  BLITZ_HOME: '/home/ann/.config/blitz',
  NODE_OPTIONS: '--inspect',
  SYSTEMROOT: 'C:\\Windows',
  UNSET: undefined,
};

describe('baseEnv', () => {
  it('passes on only the allow-listed variables on POSIX', () => {
    expect(baseEnv(parent, 'linux')).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/ann',
      USER: 'ann',
      LOGNAME: 'ann',
      LANG: 'en_GB.UTF-8',
      LC_ALL: 'C',
      LC_TIME: 'en_DK',
      TZ: 'Europe/Paris',
      TMPDIR: '/tmp/ann',
      TERM: 'xterm',
      SHELL: '/bin/zsh',
    });
    expect(baseEnv(parent, 'darwin')).toEqual(baseEnv(parent, 'linux'));
  });

  it('is case-sensitive on POSIX', () => {
    expect(baseEnv({ Path: '/x', path: '/y', lc_all: 'C' }, 'linux')).toEqual({});
  });

  it('keeps the Windows system variables, in their own spelling', () => {
    const windows = {
      Path: 'C:\\Windows\\system32',
      SystemRoot: 'C:\\Windows',
      APPDATA: 'C:\\Users\\ann\\AppData\\Roaming',
      LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
      USERPROFILE: 'C:\\Users\\ann',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      ComSpec: 'C:\\Windows\\system32\\cmd.exe',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      GITHUB_TOKEN: 'ghp_secret',
      OPENAI_API_KEY: 'sk',
    };
    expect(baseEnv(windows, 'win32')).toEqual({
      Path: 'C:\\Windows\\system32',
      SystemRoot: 'C:\\Windows',
      APPDATA: 'C:\\Users\\ann\\AppData\\Roaming',
      LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
      USERPROFILE: 'C:\\Users\\ann',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      ComSpec: 'C:\\Windows\\system32\\cmd.exe',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
    });
  });
});

describe('childEnv', () => {
  it('adds the server env on top, overriding the base', () => {
    const env = childEnv(parent, 'linux', { API_KEY: 'k', PATH: '/opt/bin' });
    expect(env.API_KEY).toBe('k');
    expect(env.PATH).toBe('/opt/bin');
    expect(env.GITHUB_TOKEN).toBeUndefined();
  });

  it('lets a server pass a variable the base would drop', () => {
    expect(childEnv(parent, 'linux', { GITHUB_TOKEN: 'own' }).GITHUB_TOKEN).toBe('own');
  });

  it('keeps one spelling of a Windows variable the server overrides', () => {
    const env = childEnv({ Path: 'C:\\a' }, 'win32', { PATH: 'C:\\b' });
    expect(env).toEqual({ PATH: 'C:\\b' });
  });
});
