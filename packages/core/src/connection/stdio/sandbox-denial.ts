import path from 'node:path';

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

/** What opens `folder` to a sandboxed server: the remedy of a refused write. */
export function sandboxWriteRemedy(folder: string): string {
  return `to let it write there, add sandbox_write = [${JSON.stringify(folder)}] to its entry in settings.toml (blitz mcp add --sandbox-write ${folder}), or set sandbox = false`;
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
