import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Where to look for a command: a PATH-style list, and on Windows the extensions it may lack. */
export interface SearchPath {
  platform?: NodeJS.Platform;
  /** Windows' PATHEXT (default `.COM;.EXE;.BAT;.CMD`): `npx` is found as `npx.cmd`. */
  pathext?: string;
}

/** The first executable `name` in a PATH-style list. */
export function findOnPath(name: string, searchPath: string, opts: SearchPath = {}): string | undefined {
  const windows = (opts.platform ?? process.platform) === 'win32';
  const extensions = windows ? (opts.pathext ?? '.COM;.EXE;.BAT;.CMD').toLowerCase().split(';').filter(Boolean) : [];
  // On Windows a bare name is found by its extensions (`npx` as `npx.cmd`); a name with one, as it is.
  const names = !windows || extensions.some((ext) => name.toLowerCase().endsWith(ext)) ? [name] : extensions.map((ext) => `${name}${ext}`);
  for (const dir of searchPath.split(windows ? ';' : ':')) {
    if (!dir) continue;
    for (const candidate of names.map((n) => path.join(dir, n))) {
      try {
        accessSync(candidate, windows ? constants.F_OK : constants.X_OK);
        return candidate;
      } catch {
        // Not here; keep looking.
      }
    }
  }
  return undefined;
}
