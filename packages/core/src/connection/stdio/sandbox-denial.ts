import path from 'node:path';
import { sandboxWriteRemedy } from '../../causes/sandbox-write-remedy.js';

/** `EROFS: read-only file system, open '/root/m.jsonl'` and the like, as Node and most runtimes write them. */
const DENIED = /\b(EROFS|EACCES)\b[^\n']*?(?:,\s*(\w+))?\s+'([^'\n]+)'|read-only file system[^\n']*?(?:,\s*(\w+))?\s+'([^'\n]+)'/i;

/**
 * One line saying which path the sandbox kept read-only and the setting that opens it, when
 * `text` (a server's error or stderr) names a refused write outside the `writable` paths;
 * undefined otherwise — a refusal inside them is not the sandbox's doing.
 */
export function explainSandboxDenial(text: string, writable: readonly string[], server: string): string | undefined {
  const folder = deniedFolder(text, writable);
  return folder === undefined ? undefined : `the sandbox keeps ${folder} read-only for ${server}: ${sandboxWriteRemedy(folder)}`;
}

/** The folder to open for the refused write `text` names, when the sandbox refused it; undefined otherwise. */
export function deniedFolder(text: string, writable: readonly string[]): string | undefined {
  const match = DENIED.exec(text);
  if (!match) return undefined;
  const op = (match[2] ?? match[4] ?? '').toLowerCase();
  const target = match[3] ?? match[5]!;
  if (!path.isAbsolute(target)) return undefined;
  if (writable.some((w) => target === w || target.startsWith(w.endsWith(path.sep) ? w : w + path.sep))) return undefined;
  // A file is opened in a folder: open the folder. mkdir and the like name the folder itself.
  return op === 'open' || op === 'unlink' || op === 'rename' || op === 'copyfile' ? path.dirname(target) : target;
}
