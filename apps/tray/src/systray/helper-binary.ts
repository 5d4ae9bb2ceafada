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

/**
 * systray2's helper is published mode 644 and its own chmod fails silently (`EACCES` at
 * spawn). Fixing it here at start-up works however the package was installed, without an
 * install script that npm may refuse to run.
 */
export function ensureHelperExecutable(platform: NodeJS.Platform, cwd: string): string {
  const file = helperPath(platform, cwd);
  if (platform === 'win32') return file;
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return file;
  } catch {
    // Not executable (or missing: chmod says which).
  }
  try {
    fs.chmodSync(file, 0o755);
  } catch (err) {
    throw new Error(`the tray helper ${file} is not executable and cannot be made so (${(err as NodeJS.ErrnoException).code}): run chmod 755 "${file}"`);
  }
  return file;
}
