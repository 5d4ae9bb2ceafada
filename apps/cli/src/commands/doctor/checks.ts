import fs from 'node:fs';
import path from 'node:path';
import { CredentialStore, findOnPath, formatProblem, loadSettings, probeBubblewrap, probeKeychain, type BlitzPaths, type ServerConfig } from '@blitz/core';
import { BlitzClient, readDaemonState } from '@blitz/client';

export interface Check {
  name: string;
  ok: boolean;
  /** Shown after the name; a failed check says how to fix it. */
  detail: string;
  /** A warning does not fail doctor. */
  warning?: boolean;
}

export function settingsCheck(file: string): { check: Check; servers: ServerConfig[] } {
  const { settings, problems } = loadSettings(file);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length) return { check: { name: 'settings', ok: false, detail: `${file}:\n    ${errors.map(formatProblem).join('\n    ')}` }, servers: [] };
  const warnings = problems.length ? ` (${problems.length} warning${problems.length === 1 ? '' : 's'}: ${problems.map(formatProblem).join('; ')})` : '';
  return { check: { name: 'settings', ok: true, detail: `${file}: ${settings.servers.length} MCP servers${warnings}` }, servers: settings.servers };
}

/** Each enabled stdio server's command must be found where the daemon would look (MCP-40). */
export function commandChecks(servers: readonly ServerConfig[], env: NodeJS.ProcessEnv): Check[] {
  return servers.flatMap((s) => {
    if (s.disabled || s.transport.kind !== 'stdio') return [];
    const command = s.transport.command;
    if (command.includes('${')) return [{ name: `command of ${s.name}`, ok: true, detail: `${command} (set by an environment variable; checked when it starts)`, warning: true }];
    const found = path.isAbsolute(command) || command.includes('/') ? (isExecutable(command) ? command : undefined) : findOnPath(command, env.PATH ?? '');
    return [{ name: `command of ${s.name}`, ok: found !== undefined, detail: found ?? `${command} is not on PATH; install it, or give its full path` }];
  });
}

export function sandboxCheck(servers: readonly ServerConfig[], platform = process.platform): Check | undefined {
  const sandboxed = servers.filter((s) => !s.disabled && s.transport.kind === 'stdio' && s.sandbox);
  if (sandboxed.length === 0) return undefined;
  if (platform !== 'linux') {
    return platform === 'darwin'
      ? { name: 'sandbox', ok: fs.existsSync('/usr/bin/sandbox-exec'), detail: 'sandbox-exec' }
      : { name: 'sandbox', ok: true, warning: true, detail: `no OS sandbox on ${platform}: stdio servers run unsandboxed` };
  }
  const probe = probeBubblewrap();
  return probe.ok
    ? { name: 'sandbox', ok: true, detail: 'bubblewrap works' }
    : { name: 'sandbox', ok: false, detail: `${probe.reason}; or set sandbox = false for ${sandboxed.map((s) => s.name).join(', ')}` };
}

/** Where OAuth sign-ins are kept (MCP-38): the OS keychain, or, when none answers, the 0600 file (a warning). */
export async function keychainCheck(paths: BlitzPaths, env: NodeJS.ProcessEnv): Promise<Check> {
  const store = await CredentialStore.open({ paths, probe: () => probeKeychain({ env }) });
  return store.backend.kind === 'keychain'
    ? { name: 'keychain', ok: true, detail: `the OS keychain answers; sign-ins are kept there (service "blitz")` }
    : { name: 'keychain', ok: true, warning: true, detail: `no OS keychain answered (${store.backend.reason ?? 'unknown reason'}): sign-ins are kept in ${store.backend.file} (mode 0600)` };
}

export async function daemonCheck(home: string): Promise<Check> {
  const state = readDaemonState(home);
  if (!state) return { name: 'daemon', ok: false, detail: 'not running; start it: blitz daemon start' };
  try {
    const status = await new BlitzClient(state, { timeoutMs: 5_000 }).status(Number.MAX_SAFE_INTEGER);
    const problems = status.problems.length ? `; settings problems: ${status.problems.join('; ')}` : '';
    return { name: 'daemon', ok: status.problems.length === 0, detail: `running (pid ${state.pid}) and answering on http://127.0.0.1:${state.port}${problems}` };
  } catch (err) {
    return { name: 'daemon', ok: false, detail: `pid ${state.pid} is alive but does not answer on port ${state.port}: ${(err as Error).message}` };
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
