import type { Command } from 'commander';
import {
  AUTOSTART_KINDS,
  autostartStatus,
  enableAutostart,
  processAutostartSystem,
  regAddArgs,
  regCommandLine,
  removeAutostart,
  type AutostartEntry,
  type AutostartKind,
} from '@blitz/autostart';
import type { CliContext } from '../../context.js';
import { cliLaunchSpec } from './cli-launch.js';

const WHAT: Record<AutostartKind, string> = {
  tray: 'the tray (`blitz tray`, which starts the daemon)',
  daemon: 'the daemon alone (`blitz daemon`)',
};

export function registerAutostart(program: Command, ctx: CliContext): void {
  const autostart = program.command('autostart').description('start Blitz at login: the tray, or with --daemon-only the daemon alone');

  autostart
    .command('enable')
    .description('start the tray at login (it starts the daemon); --daemon-only: the daemon alone, for machines without a desktop')
    .option('--daemon-only', 'start only the daemon (systemd user unit, LaunchAgent, or Run value)')
    .action(async (opts: { daemonOnly?: boolean }) => {
      const kind: AutostartKind = opts.daemonOnly ? 'daemon' : 'tray';
      const sys = processAutostartSystem(ctx.env);
      const { entry, removed } = await enableAutostart(sys, kind, cliLaunchSpec(ctx));
      ctx.out(`Blitz will start at login: ${WHAT[kind]}.`);
      for (const line of describeEntry(entry, kind)) ctx.out(`  ${line}`);
      for (const other of removed) ctx.out(`  removed the entry that started ${WHAT[other]}`);
      for (const line of nextSteps(sys.platform, kind, entry)) ctx.out(line);
    });

  autostart
    .command('disable')
    .description('stop starting Blitz at login (both entries; --daemon-only: only the daemon one)')
    .option('--daemon-only', 'remove only the daemon-only entry')
    .action(async (opts: { daemonOnly?: boolean }) => {
      const sys = processAutostartSystem(ctx.env);
      const kinds: readonly AutostartKind[] = opts.daemonOnly ? ['daemon'] : AUTOSTART_KINDS;
      const status = await autostartStatus(sys);
      let any = false;
      for (const kind of kinds) {
        if (await removeAutostart(sys, kind)) {
          any = true;
          ctx.out(`Removed ${status.find((s) => s.kind === kind)!.where}: ${WHAT[kind]} no longer starts at login.`);
        }
      }
      if (!any) ctx.out('Nothing to remove: Blitz does not start at login.');
    });

  autostart
    .command('status')
    .description('say what starts at login, from which entry')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const status = await autostartStatus(processAutostartSystem(ctx.env), cliLaunchSpec(ctx));
      if (opts.json) {
        ctx.out(JSON.stringify(status, null, 2));
        return;
      }
      for (const s of status) {
        if (!s.installed) {
          ctx.out(`${s.kind.padEnd(6)}  off (${s.where})`);
          continue;
        }
        ctx.out(`${s.kind.padEnd(6)}  on: ${WHAT[s.kind]}, from ${s.where}`);
        if (s.command) ctx.out(`        runs ${s.command}`);
        if (s.current === false)
          ctx.out(
            '        differs from what `blitz autostart enable` would write now (Node, Blitz or PATH changed): run it again to update',
          );
      }
      if (status.every((s) => !s.installed)) ctx.out('Blitz does not start at login. Turn it on: blitz autostart enable');
    });
}

function describeEntry(entry: AutostartEntry, kind: AutostartKind): string[] {
  switch (entry.kind) {
    case 'file':
      return [`wrote ${entry.path}`, ...(entry.enableLink ? [`enabled it: ${entry.enableLink.path}`] : [])];
    case 'registry':
      return [`set ${entry.key}\\${entry.value}`, `(${regCommandLine(regAddArgs(kind, entry.data))})`];
    default: {
      const _exhaustive: never = entry;
      return _exhaustive;
    }
  }
}

/** What happens next, and how to have it now rather than at the next login. */
function nextSteps(platform: NodeJS.Platform, kind: AutostartKind, entry: AutostartEntry): string[] {
  const path = entry.kind === 'file' ? entry.path : '';
  if (platform === 'linux' && kind === 'daemon') {
    return [
      'It starts at your next login. To start it now: systemctl --user daemon-reload && systemctl --user start blitz.service',
      'On a machine you only reach over SSH, also run `loginctl enable-linger "$USER"` so it starts at boot.',
    ];
  }
  if (platform === 'darwin') return [`It starts at your next login. To start it now: launchctl load -w "${path}"`];
  return [
    kind === 'tray'
      ? 'It starts at your next login. To start it now: blitz tray'
      : 'It starts at your next login. To start it now: blitz daemon start',
  ];
}
