import type { ServerConfig, ServerStatus } from '@blitz/core';
import type { NoticeFeed } from './notices/index.js';
import { globalConnections, serverCopies, type GlobalConnection } from './server-copies.js';
import type { SettingsSource } from './settings/settings-source.js';
import type { Workspace } from './workspaces/workspace.js';
import type { GlobalServerStatus, ServerState, StatusResponse } from '@blitz/client';

/** When workspaces disagree, the state the user most needs to hear wins. */
const PRECEDENCE: ServerState[] = ['paused', 'failed', 'needsSignIn', 'needsMoreAccess', 'connected', 'starting', 'idle', 'disabled'];

/**
 * A global server's state for the tray: disabled when switched off, otherwise the most
 * telling state among the open workspaces running it (idle when none does).
 */
export function globalServerStatus(config: ServerConfig, running: readonly ServerStatus[]): GlobalServerStatus {
  const base: GlobalServerStatus = { name: config.name, enabled: !config.disabled, transport: config.transport.kind, state: 'idle' };
  if (config.disabled) return { ...base, state: 'disabled' };
  const worst = [...running].sort((a, b) => PRECEDENCE.indexOf(a.state) - PRECEDENCE.indexOf(b.state))[0];
  if (!worst) return base;
  return {
    ...base,
    state: worst.state,
    ...(worst.error === undefined ? {} : { error: worst.error }),
    ...(worst.causeCode === undefined ? {} : { causeCode: worst.causeCode }),
    ...(worst.cause === undefined ? {} : { cause: worst.cause }),
    ...(worst.remedy === undefined ? {} : { remedy: worst.remedy }),
    ...(worst.retryAt === undefined ? {} : { retryAt: new Date(worst.retryAt).toISOString() }),
    ...(worst.scope === undefined ? {} : { scope: worst.scope }),
    // Idle everywhere, and stopped to save memory in some workspace: it ran, and starts again at the next call.
    ...(worst.state === 'idle' && running.some((s) => s.reaped) ? { reaped: true as const } : {}),
    ...warningsOf(running),
    ...reviewOf(running),
  };
}

/** The tools of every copy held for review, each once (a global server's pins are every workspace's). */
function reviewOf(running: readonly ServerStatus[]): Pick<GlobalServerStatus, 'review'> {
  const byTool = new Map(running.flatMap((s) => s.review ?? []).map((r) => [r.tool, r]));
  return byTool.size > 0 ? { review: [...byTool.values()] } : {};
}

/** The warnings of every copy (a listing of no tools, one cut short, a setting matching no tool), each once. */
function warningsOf(running: readonly ServerStatus[]): Pick<GlobalServerStatus, 'warnings'> {
  const warnings = [...new Set(running.flatMap((s) => s.warnings))];
  return warnings.length > 0 ? { warnings } : {};
}

export interface StatusParts {
  version: string;
  settings: Pick<SettingsSource, 'settings' | 'problems'>;
  workspaces: readonly Workspace[];
  notices: NoticeFeed;
  /** Notices with an id above this; all kept ones when absent. */
  after?: number | undefined;
}

/** `GET /v1/status`: the global servers in settings order, settings problems, and the notices after a cursor. */
export function daemonStatus(parts: StatusParts): StatusResponse {
  // By name, once: a lookup per server keeps this linear in the number of servers.
  const running = new Map<string, GlobalConnection[]>();
  for (const r of globalConnections(parts.workspaces)) {
    const same = running.get(r.status.name);
    if (same) same.push(r);
    else running.set(r.status.name, [r]);
  }
  return {
    version: parts.version,
    pid: process.pid,
    servers: parts.settings.settings.servers.map((config) => {
      const mine = running.get(config.name) ?? [];
      return {
        ...globalServerStatus(
          config,
          mine.map((r) => r.status),
        ),
        copies: serverCopies(mine),
      };
    }),
    problems: parts.settings.problems(),
    notices: parts.notices.after(parts.after),
    lastNoticeId: parts.notices.lastId,
    workspaces: parts.workspaces.length,
  };
}
