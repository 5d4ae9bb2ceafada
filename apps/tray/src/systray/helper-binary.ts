import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The helper systray2 runs on each platform (its non-debug build; the debug one is not shipped). */
export function helperName(platform: NodeJS.Platform): string | undefined {
  switch (platform) {
    case 'linux':
      return 'tray_linux_release';
    case 'darwin':
      return 'tray_darwin_release';
    case 'win32':
      return 'tray_windows_release.exe';
    default:
      return undefined;
  }
}

/** Where systray2 will look: `./traybin/` under the working directory first, then its own folder. */
export function helperPath(platform: NodeJS.Platform, cwd: string): string {
  const name = helperName(platform);
  if (!name) throw new Error(`the tray icon is not supported on ${platform}`);
  const local = path.join(cwd, 'traybin', name);
  if (fs.existsSync(local)) return local;
  const pkg = path.dirname(createRequire(import.meta.url).resolve('systray2'));
  return path.join(pkg, 'traybin', name);
}

/** How the helper's run bit is set: injectable, so the refusal a root-owned install gives can be tested as root. */
export type Chmod = (file: string, mode: number) => void;

/**
 * systray2's helper is published mode 644 and its own chmod fails silently (`EACCES` at
 * spawn). Fixing it here at start-up works however the package was installed, without an
 * install script that npm may refuse to run. When the file is not ours to change (a package
 * installed by root), an executable copy under `<cwd>/state/tray-helper/` is run instead,
 * refreshed whenever the packaged helper differs.
 */
export function ensureHelperExecutable(platform: NodeJS.Platform, cwd: string, chmod: Chmod = fs.chmodSync): string {
  const file = helperPath(platform, cwd);
  if (platform === 'win32' || isExecutable(file)) return file;
  try {
    chmod(file, 0o755);
    return file;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EACCES') throw cannotRun(file, code);
    const copy = path.join(cwd, 'state', 'tray-helper', path.basename(file));
    try {
      executableCopy(file, copy);
    } catch (copyErr) {
      throw cannotRun(file, `${code}; a copy at ${copy} failed too: ${(copyErr as NodeJS.ErrnoException).code}`);
    }
    return copy;
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false; // Not executable (or missing: chmod says which).
  }
}

/** Copies `from` to `to` with mode 755 unless `to` already holds the same bytes; written aside, then renamed. */
function executableCopy(from: string, to: string): void {
  const bytes = fs.readFileSync(from);
  try {
    if (fs.readFileSync(to).equals(bytes) && isExecutable(to)) return;
  } catch {
    // No copy yet.
  }
  fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
  const temp = `${to}.${process.pid}.tmp`;
  fs.writeFileSync(temp, bytes, { mode: 0o755 });
  fs.renameSync(temp, to);
}

function cannotRun(file: string, why: string | undefined): Error {
  return new Error(`the tray helper ${file} is not executable and cannot be made so (${why}): run chmod 755 "${file}"`);
}
