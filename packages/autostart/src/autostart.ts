import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  autostartEntry,
  autostartPlatform,
  entryLocation,
  userDirs,
  type AutostartEntry,
  type AutostartPlatform,
  type UserDirs,
} from './autostart-entry.js';
import { AUTOSTART_KINDS, type AutostartKind, type LaunchSpec } from './launch-spec.js';
import { parseRegQuery, regAddArgs, regDeleteArgs, regQueryArgs } from './windows-run-key.js';

export interface RegResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The outside world autostart touches: where the user's folders are, and `reg.exe` on Windows. */
export interface AutostartSystem {
  platform: NodeJS.Platform;
  dirs: UserDirs;
  reg(args: readonly string[]): Promise<RegResult>;
}

export function processAutostartSystem(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): AutostartSystem {
  return {
    platform,
    dirs: userDirs(env, os.homedir()),
    reg: (args) =>
      new Promise((resolve) => {
        execFile('reg', [...args], { windowsHide: true, timeout: 15_000 }, (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
        });
      }),
  };
}

export interface AutostartStatus {
  kind: AutostartKind;
  /** The file, or the registry value. */
  where: string;
  installed: boolean;
  /** The command line it runs, as written in the entry. */
  command?: string;
  /** Whether it is exactly what `enable` would write now; false after Node or Blitz moved. */
  current?: boolean;
}

function platformOf(sys: AutostartSystem): AutostartPlatform {
  const platform = autostartPlatform(sys.platform);
  if (!platform) throw new Error(`starting at login is not supported on ${sys.platform}`);
  return platform;
}

/**
 * Installs the entry for `kind` and removes the other one: the tray starts the daemon
 * itself, and a login-time daemon next to it would be refused as a second daemon and,
 * under systemd, restarted again and again.
 */
export async function enableAutostart(
  sys: AutostartSystem,
  kind: AutostartKind,
  spec: LaunchSpec,
): Promise<{ entry: AutostartEntry; removed: AutostartKind[] }> {
  const entry = autostartEntry(platformOf(sys), kind, spec, sys.dirs);
  const other: AutostartKind = kind === 'tray' ? 'daemon' : 'tray';
  const removed = (await removeAutostart(sys, other)) ? [other] : [];
  switch (entry.kind) {
    case 'file': {
      writeFileAtomic(entry.path, entry.text);
      if (entry.enableLink) {
        fs.mkdirSync(path.dirname(entry.enableLink.path), { recursive: true });
        fs.rmSync(entry.enableLink.path, { force: true });
        fs.symlinkSync(entry.enableLink.target, entry.enableLink.path);
      }
      break;
    }
    case 'registry': {
      const result = await sys.reg(regAddArgs(kind, entry.data));
      if (result.code !== 0) throw new Error(`reg add failed (exit ${result.code}): ${result.stderr.trim() || result.stdout.trim()}`);
      break;
    }
    default: {
      const _exhaustive: never = entry;
      return _exhaustive;
    }
  }
  return { entry, removed };
}

/** Removes the entry for `kind`; true when there was one. */
export async function removeAutostart(sys: AutostartSystem, kind: AutostartKind): Promise<boolean> {
  const platform = platformOf(sys);
  const where = entryLocation(platform, kind, sys.dirs);
  if (platform === 'win32') {
    if ((await installedText(sys, kind)) === undefined) return false;
    const result = await sys.reg(regDeleteArgs(kind));
    if (result.code !== 0) throw new Error(`reg delete failed (exit ${result.code}): ${result.stderr.trim() || result.stdout.trim()}`);
    return true;
  }
  const existed = fs.existsSync(where);
  fs.rmSync(where, { force: true });
  if (platform === 'linux' && kind === 'daemon') {
    const wants = path.join(path.dirname(where), 'default.target.wants');
    fs.rmSync(path.join(wants, path.basename(where)), { force: true });
    // Enable made the folder for its link; left empty, it is ours to take away (never another unit's).
    if (isEmptyDir(wants)) fs.rmdirSync(wants);
  }
  return existed;
}

/** What is installed for each kind, and whether it matches what `enable` would write with `spec`. */
export async function autostartStatus(sys: AutostartSystem, spec?: LaunchSpec): Promise<AutostartStatus[]> {
  const platform = platformOf(sys);
  return Promise.all(
    AUTOSTART_KINDS.map(async (kind): Promise<AutostartStatus> => {
      const where = entryLocation(platform, kind, sys.dirs);
      const text = await installedText(sys, kind);
      if (text === undefined) return { kind, where, installed: false };
      const command = commandOf(platform, text);
      const status: AutostartStatus = { kind, where, installed: true, ...(command === undefined ? {} : { command }) };
      if (!spec) return status;
      const wanted = autostartEntry(platform, kind, spec, sys.dirs);
      return { ...status, current: text === (wanted.kind === 'file' ? wanted.text : wanted.data) };
    }),
  );
}

/** What the tray's "Start at login" item reads and sets. */
export interface AutostartControl {
  isEnabled(): Promise<boolean>;
  setEnabled(enabled: boolean): Promise<void>;
}

/** The tray's "Start at login" item: the tray entry, nothing else. */
export function autostartControl(sys: AutostartSystem, spec: LaunchSpec): AutostartControl {
  return {
    isEnabled: async () => (await installedText(sys, 'tray')) !== undefined,
    async setEnabled(enabled) {
      if (enabled) await enableAutostart(sys, 'tray', spec);
      else await removeAutostart(sys, 'tray');
    },
  };
}

/** The installed entry's text (a file's content, a registry value's data), or undefined. */
async function installedText(sys: AutostartSystem, kind: AutostartKind): Promise<string | undefined> {
  const platform = platformOf(sys);
  if (platform === 'win32') {
    const result = await sys.reg(regQueryArgs(kind));
    return result.code === 0 ? parseRegQuery(result.stdout, kind) : undefined;
  }
  try {
    return fs.readFileSync(entryLocation(platform, kind, sys.dirs), 'utf8');
  } catch {
    return undefined;
  }
}

/** The command line an installed entry runs, for `status`. */
function commandOf(platform: AutostartPlatform, text: string): string | undefined {
  switch (platform) {
    case 'linux':
      return /^(?:Exec|ExecStart)=(.*)$/m.exec(text)?.[1];
    case 'darwin': {
      const array = /<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(text)?.[1];
      return array && [...array.matchAll(/<string>(.*?)<\/string>/g)].map((m) => unescapeXml(m[1]!)).join(' ');
    }
    case 'win32':
      return text;
    default: {
      const _exhaustive: never = platform;
      return _exhaustive;
    }
  }
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function writeFileAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode: 0o644 });
  fs.renameSync(temp, file);
}

function isEmptyDir(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}
