/**
 * The environment a server process starts with. The daemon's own environment holds tokens and
 * keys a server has no business seeing, so only what a program needs to run gets through; the
 * server's configured `env` is added on top.
 */

/** Variables every platform passes on; `LC_*` is matched as a prefix. */
const COMMON = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'TZ', 'TMPDIR', 'TERM', 'SHELL'];

/** What Windows programs (and cmd.exe shims) need to find their system and user folders. */
const WINDOWS = [
  'PATHEXT',
  'COMSPEC',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'USERNAME',
  'TEMP',
  'TMP',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'PROGRAMDATA',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
];

function isPassedOn(key: string, platform: NodeJS.Platform): boolean {
  // Windows variable names are case-insensitive (`Path`, `SystemRoot`); POSIX ones are not.
  const name = platform === 'win32' ? key.toUpperCase() : key;
  if (name.startsWith('LC_')) return true;
  return COMMON.includes(name) || (platform === 'win32' && WINDOWS.includes(name));
}

/** The part of the daemon's environment a server inherits. */
export function baseEnv(parentEnv: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parentEnv)) {
    if (value !== undefined && isPassedOn(key, platform)) env[key] = value;
  }
  return env;
}

/** The full environment of a server process: the scrubbed base plus the server's own `env`. */
export function childEnv(
  parentEnv: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
  serverEnv: Readonly<Record<string, string>>,
): Record<string, string> {
  const env = baseEnv(parentEnv, platform);
  for (const [key, value] of Object.entries(serverEnv)) {
    if (platform === 'win32') {
      // Drop `Path` when the server sets `PATH`: two spellings of one variable is undefined behaviour.
      for (const existing of Object.keys(env)) {
        if (existing.toUpperCase() === key.toUpperCase()) delete env[existing];
      }
    }
    env[key] = value;
  }
  return env;
}
