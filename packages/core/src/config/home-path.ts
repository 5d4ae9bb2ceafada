import os from 'node:os';
import path from 'node:path';

/** `~` and `~/…` (also `~\…`) made absolute under `home`; any other path is returned as given. */
export function expandHome(p: string, home: string = os.homedir()): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2));
  return p;
}

/** Why a path setting cannot be used, or undefined: it must be absolute once `~` is expanded. */
export function absolutePathProblem(p: string): string | undefined {
  if (p.trim() === '') return 'has an empty path';
  if (p.startsWith('~') && !/^~($|[/\\])/.test(p))
    return `${JSON.stringify(p)}: only "~" and "~/…" (your home) are expanded, not another user's home`;
  if (!path.isAbsolute(expandHome(p, '/home'))) return `${JSON.stringify(p)} is not an absolute path (start it with "/" or "~/")`;
  return undefined;
}
