import type { Command } from 'commander';
import {
  causeLine,
  causeOf,
  createConnector,
  explainCause,
  formatProblem,
  isBlitzError,
  Manager,
  resolveServer,
  secretsOf,
  ServerSignIns,
  toolSettingProblems,
  type ParsedSettings,
} from '@blitz/core';
import { systemClock } from '@blitz/clock';
import type { CliContext } from '../../context.js';
import { openSignInStore } from '../../sign-in-store.js';
import { VERSION } from '../../version.js';
import {
  commandChecks,
  daemonCheck,
  environmentChecks,
  keychainCheck,
  processesCheck,
  sandboxCheck,
  settingsCheck,
  type Check,
} from './checks.js';

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('check settings, commands, the sandbox and the daemon; --online also connects to every server')
    .option('--online', 'connect to every enabled MCP server and count its tools')
    .action(async (opts: { online?: boolean }) => {
      let failed = false;
      const print = (check: Check) => {
        const mark = check.ok ? (check.warning ? 'warn' : 'ok  ') : 'FAIL';
        if (!check.ok && !check.warning) failed = true;
        ctx.out(`${mark}  ${check.name}: ${check.detail}`);
      };
      const { check, servers, serverLine } = settingsCheck(ctx.paths.settings);
      print(check);
      // Asked first: a running daemon finds commands on its own PATH, not this shell's.
      const daemon = await daemonCheck(ctx.paths.home, VERSION);
      for (const c of commandChecks(servers, ctx.env, daemon.search)) print(c);
      for (const c of environmentChecks(servers, ctx.env)) print(c);
      const sandbox = sandboxCheck(servers);
      if (sandbox) print(sandbox);
      const processes = processesCheck(servers);
      if (processes) print(processes);
      print(await keychainCheck(ctx.paths, ctx.env));
      print(daemon.check);
      if (opts.online && !(await online(ctx, servers, serverLine))) failed = true;
      process.exitCode = failed ? 1 : 0;
    });
}

/** Connects to every enabled server at once; a line per server as it finishes. */
async function online(
  ctx: CliContext,
  servers: Parameters<typeof resolveServer>[0][],
  serverLine: ParsedSettings['serverLine'],
): Promise<boolean> {
  const enabled = servers.filter((s) => !s.disabled);
  if (enabled.length === 0) return true;
  // The lines the settings loader found: the file is not read again.
  const lineOf = (s: (typeof servers)[number]) => (field: string) => serverLine(s.name, field);
  // Signed-in servers are reached with their tokens, as the daemon would.
  const store = openSignInStore(ctx);
  // Any server's error may quote a token (a stderr, an echoed header): the output knows every stored one before the first line.
  for (const s of enabled) {
    if (s.transport.kind !== 'http') continue;
    const creds = await store.then((st) => st.read(s.name)).catch(() => undefined);
    if (creds) ctx.redactor?.add(secretsOf(creds));
  }
  const signIns = new ServerSignIns({
    store: () => store,
    clock: systemClock,
    // Tokens read for a server may come back in its errors: the output must know them.
    onSecrets: (values) => ctx.redactor?.add(values),
    onForgotten: (server, why) => ctx.err(`forgot the sign-in of MCP server ${server}: ${why}`),
    warn: (m) => ctx.err(m),
  });
  const manager = new Manager({
    workspace: ctx.cwd,
    clock: systemClock,
    connector: createConnector({
      blitzHome: ctx.paths.home,
      clock: systemClock,
      clientVersion: VERSION,
      warn: (m) => ctx.err(m),
      authFetch: (config) => signIns.fetchFor(config),
    }),
  });
  await manager.update({ servers: enabled.map((s) => resolveServer(s, ctx.env)) });
  const waiting = new Set(enabled.map((s) => s.name));
  const progress = setInterval(() => ctx.err(`… waiting for ${[...waiting].join(', ')}`), 2_000);
  ctx.err(`Connecting to ${enabled.length} MCP server${enabled.length === 1 ? '' : 's'}…`);
  let ok = true;
  try {
    await Promise.all(
      enabled.map(async (s) => {
        const connection = manager.connection(s.name);
        try {
          const tools = await connection.tools();
          ctx.out(`ok    ${s.name}: ${tools.length} tool${tools.length === 1 ? '' : 's'}`);
          // Known only now that the server listed its tools (doctor does not fail on them).
          for (const p of toolSettingProblems(
            s,
            tools.map((t) => t.name),
            lineOf(s),
          ))
            ctx.out(`warn  ${s.name}: ${formatProblem(p)}`);
          // What its listing earned: none listed though it offers tools, or a listing cut short.
          for (const w of connection.status().warnings) ctx.out(`warn  ${s.name}: ${w}`);
        } catch (err) {
          ok = false;
          ctx.out(`FAIL  ${s.name}: ${failureText(s.name, err)}`);
        } finally {
          waiting.delete(s.name);
        }
      }),
    );
  } finally {
    clearInterval(progress);
    await manager.close();
    await signIns.close();
  }
  return ok;
}

/** A failure in the words every surface uses, then what the error adds (a stderr tail), indented. */
function failureText(server: string, err: unknown): string {
  if (!isBlitzError(err)) return (err as Error).message;
  const [, ...more] = err.message.split('\n');
  const detail = more.filter((l) => l.trim() !== '').map((l) => `\n      ${l}`);
  return `${causeLine(explainCause(server, causeOf(err)))}${detail.join('')}`;
}
