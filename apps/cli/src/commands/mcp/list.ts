import path from 'node:path';
import type { Command } from 'commander';
import { describeTransport, type ServerConfig } from '@blitz/core';
import type { GlobalServerStatus, ServerCopy } from '@blitz/client';
import type { CliContext } from '../../context.js';
import { liveStates } from '../../live-states.js';
import { loadSettingsOrFail } from '../../load.js';
import { oneLineError } from '../../output/one-line-error.js';
import { renderRows, renderTable } from '../../output/table.js';
import { openSignInStore, signedInServers } from '../../sign-in-store.js';
import { projectServers } from './project-servers.js';

export function registerList(mcp: Command, ctx: CliContext): void {
  mcp
    .command('list')
    .description('list the configured MCP servers')
    .option('--workspace <dir>', 'the project whose own servers (.mcp.json) are listed too (default: the current directory)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean; workspace?: string }) => {
      const settings = loadSettingsOrFail(ctx);
      const live = await liveStates(ctx);
      const dir = path.resolve(ctx.cwd, opts.workspace ?? '.');
      const project = live ? await projectServers(ctx, dir) : undefined;
      const signIns = await signInStates(ctx, settings.servers);
      const rows = settings.servers.map((s) => {
        const state = live?.get(s.name);
        return {
          name: s.name,
          transport: s.transport.kind,
          target: describeTransport(s),
          enabled: !s.disabled,
          ...(state
            ? {
                state: state.state,
                ...(state.error ? { error: state.error } : {}),
                ...(state.cause ? { cause: state.cause, ...(state.remedy ? { remedy: state.remedy } : {}) } : {}),
                ...(state.scope ? { scope: state.scope } : {}),
                ...(state.reaped ? { reaped: true } : {}),
              }
            : {}),
          ...(state?.copies ? { copies: state.copies } : {}),
          ...(state?.warnings ? { warnings: state.warnings } : {}),
          ...(state?.review ? { review: state.review } : {}),
          ...(signIns && maySignIn(s) ? { signedIn: signIns.servers.has(s.name) } : {}),
        };
      });
      const projectRows = (project?.servers ?? []).map((s) => ({
        name: s.name,
        source: s.source,
        workspace: project!.workspace.root,
        state: s.state,
        ...(s.reaped ? { reaped: true } : {}),
        ...(s.error ? { error: s.error } : {}),
        ...(s.cause ? { cause: s.cause, ...(s.remedy ? { remedy: s.remedy } : {}) } : {}),
        ...(s.review ? { review: s.review } : {}),
      }));
      if (opts.json) {
        ctx.out(JSON.stringify([...rows, ...projectRows], null, 2));
        return;
      }
      if (rows.length === 0 && projectRows.length === 0) {
        ctx.out(
          `No MCP servers configured in ${ctx.paths.settings}.\nAdd one: blitz mcp add <name> <command> [args...]  or  blitz mcp add <name> <url>`,
        );
        return;
      }
      const status = (r: StatusRow) => {
        const signedIn = r.signedIn ? ', signed in' : '';
        if (!r.enabled) return `disabled${signedIn}`;
        if (!r.state) return `enabled${signedIn}`;
        if (r.state === 'idle' && r.reaped) return `${IDLE_STOPPED}${signedIn}`;
        // The error repeats the state in other words; the fix is what the user needs (MCP-38).
        if (r.state === 'needsSignIn') return `needs sign-in: run blitz mcp login ${r.name}`;
        if (r.state === 'needsMoreAccess')
          return `needs more access${r.scope ? ` (scope "${r.scope}")` : ''}: run blitz mcp login ${r.name}`;
        // One line per server, in the words every surface uses; the whole error stays for mcp get and --json.
        if (r.cause) return `${stateText(r.state)}${signedIn}: ${oneLineError(r.remedy ? `${r.cause}; ${r.remedy}` : r.cause)}`;
        // A daemon from before the cause fields.
        return r.error ? `${stateText(r.state)}${signedIn}: ${oneLineError(r.error)}` : `${stateText(r.state)}${signedIn}`;
      };
      if (live) {
        ctx.out(
          renderTable(
            ['NAME', 'TRANSPORT', 'COMMAND OR URL', 'COPIES', 'STATUS'],
            rows.map((r) => [r.name, r.transport, r.target, copiesCount(r.copies ?? []), status(r)]),
          ),
        );
        const running = rows.flatMap((r) => (r.copies ?? []).map((c) => [r.name, describeCopy(c)]));
        if (running.length > 0) ctx.out(`Running copies:\n${renderRows(running).replace(/^/gm, '  ')}`);
        // A warning is no failure: the server runs, but not as it might be meant to (a listing of no tools, …).
        for (const r of rows) for (const w of r.warnings ?? []) ctx.out(`warning: ${r.name}: ${w}`);
        if (project) {
          const { root } = project.workspace;
          ctx.out(`Project servers of ${root}:`);
          ctx.out(
            renderTable(
              ['NAME', 'FROM', 'STATUS'],
              projectRows.map((r) => [r.name, path.relative(root, r.source) || r.source, status({ ...r, enabled: true })]),
            ),
          );
        }
        // Held back from clients until the user looks (issue 31); a project's server under its trust alike.
        const inProject = project && path.resolve(project.workspace.root) !== dir ? ` --workspace ${project.workspace.root}` : '';
        for (const [r, where] of [...rows.map((r) => [r, ''] as const), ...projectRows.map((r) => [r, inProject] as const)]) {
          if (!r.review) continue;
          const tools = r.review.map((t) => `"${t.tool}" (${t.change})`).join(', ');
          ctx.out(`review: ${r.name}: ${tools} not as pinned, held for review: blitz mcp review ${r.name}${where}`);
        }
      } else {
        ctx.out(
          renderTable(
            ['NAME', 'TRANSPORT', 'COMMAND OR URL', 'STATUS'],
            rows.map((r) => [r.name, r.transport, r.target, status(r)]),
          ),
        );
        ctx.out('(the daemon is not running: showing settings only)');
      }
      if (signIns?.fileFallback) ctx.out(`(sign-ins are kept in ${signIns.fileFallback})`);
    });
}

/** Which HTTP servers are signed in, and where sign-ins are kept when it is not the keychain. */
async function signInStates(
  ctx: CliContext,
  servers: readonly ServerConfig[],
): Promise<{ servers: Set<string>; fileFallback?: string } | undefined> {
  const eligible = servers.filter(maySignIn);
  if (eligible.length === 0) return undefined;
  try {
    const store = await openSignInStore(ctx);
    const signedIn = await signedInServers(store, eligible);
    // Where sign-ins are kept matters once there is one, or a server is set up for one.
    const matters = signedIn.size > 0 || eligible.some((s) => s.oauth !== undefined);
    return { servers: signedIn, ...(store.backend.kind === 'file' && matters ? { fileFallback: store.describe() } : {}) };
  } catch (err) {
    ctx.err(`blitz: cannot read sign-ins: ${(err as Error).message}`);
    return undefined;
  }
}

/** An HTTP server without a static Authorization header: one that can be signed in to. */
function maySignIn(server: ServerConfig): boolean {
  const t = server.transport;
  return t.kind === 'http' && !Object.keys(t.headers).some((h) => h.toLowerCase() === 'authorization');
}

/** How many copies run: `2`, or `1 shared` for one serving every workspace. */
function copiesCount(copies: readonly ServerCopy[]): string {
  return copies.length === 1 && copies[0]!.shared ? '1 shared' : String(copies.length);
}

/** `pid 123 for /src/a`, or `pid 124 shared by /src/a, /src/b`. */
function describeCopy(copy: ServerCopy): string {
  const what = copy.pid === undefined ? copy.state : `pid ${copy.pid}`;
  return `${what} ${copy.shared ? 'shared by' : 'for'} ${copy.workspaces.join(', ')}`;
}

/** A server stopped after its idle timeout (issue 32.1), in the words the tray and the page use. */
const IDLE_STOPPED = 'idle (stopped to save memory)';

function stateText(state: GlobalServerStatus['state']): string {
  return state === 'idle'
    ? 'enabled (not started)'
    : state === 'needsSignIn'
      ? 'needs sign-in'
      : state === 'needsMoreAccess'
        ? 'needs more access'
        : state;
}

/** What a STATUS cell is made of, for a server of settings.toml or of a project. */
interface StatusRow {
  readonly name: string;
  readonly enabled: boolean;
  readonly state?: GlobalServerStatus['state'];
  readonly error?: string;
  readonly cause?: string;
  readonly remedy?: string;
  readonly scope?: string;
  readonly reaped?: boolean;
  readonly signedIn?: boolean;
}
