import { assertPrintable, launchArgs, launchEnv, type LaunchSpec } from './launch-spec.js';

/**
 * One argument of a desktop entry's Exec key. The quoting rule (double quotes, with `"`,
 * `` ` ``, `$` and `\` escaped) comes first; then the string rule doubles every backslash,
 * and `%` is doubled so it is not read as a field code.
 * https://specifications.freedesktop.org/desktop-entry-spec/latest/exec-variables.html
 */
export function desktopExecArg(arg: string): string {
  const quoted = /^[A-Za-z0-9_-]+$/.test(arg) ? arg : `"${arg.replace(/["`$\\]/g, '\\$&')}"`;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

/** `~/.config/autostart/blitz.desktop`: the desktop session runs `blitz tray` at login. */
export function desktopEntry(spec: LaunchSpec): string {
  const env = launchEnv(spec).map(([k, v]) => `${k}=${v}`);
  const args = [...(env.length > 0 ? ['/usr/bin/env', ...env] : []), ...launchArgs(spec, 'tray')];
  assertPrintable(args);
  return [
    '# Written by `blitz autostart enable`; `blitz autostart disable` removes it.',
    '[Desktop Entry]',
    'Type=Application',
    'Name=Blitz',
    'Comment=Blitz tray: your MCP servers at a glance',
    `Exec=${args.map(desktopExecArg).join(' ')}`,
    'Terminal=false',
    'NoDisplay=true',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * One word of a systemd unit's command line or assignment: double-quoted with C escapes,
 * `%` doubled (specifiers) and, where variables expand (ExecStart), `$` doubled.
 * https://www.freedesktop.org/software/systemd/man/latest/systemd.service.html#Command%20lines
 */
export function systemdWord(word: string, opts: { expandsVariables: boolean }): string {
  let escaped = word.replace(/[\\"]/g, '\\$&').replace(/%/g, '%%');
  if (opts.expandsVariables) escaped = escaped.replace(/\$/g, '$$$$');
  return `"${escaped}"`;
}

/**
 * `~/.config/systemd/user/blitz.service`: `blitz daemon` in the foreground, for machines
 * without a desktop. The daemon stops its own servers on SIGTERM, so only it is signalled
 * (KillMode=mixed) and it gets longer than its 15 s stop deadline.
 */
export function systemdUnit(spec: LaunchSpec): string {
  const args = launchArgs(spec, 'daemon');
  const env = launchEnv(spec).map(([k, v]) => `${k}=${v}`);
  assertPrintable([...args, ...env]);
  return [
    '# Written by `blitz autostart enable --daemon-only`; `blitz autostart disable` removes it.',
    '[Unit]',
    'Description=Blitz MCP hub daemon',
    // A daemon that keeps failing (another one already runs, say) is not restarted forever.
    'StartLimitIntervalSec=120',
    'StartLimitBurst=5',
    '',
    '[Service]',
    'Type=exec',
    `ExecStart=${args.map((a) => systemdWord(a, { expandsVariables: true })).join(' ')}`,
    ...env.map((e) => `Environment=${systemdWord(e, { expandsVariables: false })}`),
    'Restart=on-failure',
    'RestartSec=5',
    'KillMode=mixed',
    'TimeoutStopSec=20',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}
