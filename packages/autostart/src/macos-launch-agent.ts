import path from 'node:path';
import { assertPrintable, launchArgs, launchEnv, type AutostartKind, type LaunchSpec } from './launch-spec.js';

export function launchAgentLabel(kind: AutostartKind): string {
  return kind === 'tray' ? 'dev.blitz.tray' : 'dev.blitz.daemon';
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const string = (value: string) => `<string>${xml(value)}</string>`;

/**
 * `~/Library/LaunchAgents/<label>.plist`. launchd passes the arguments as they are (no
 * shell, no quoting) and gives the process no login-shell PATH, hence EnvironmentVariables.
 * The daemon is kept alive when it fails; the tray, once quit, stays quit.
 */
export function launchAgentPlist(spec: LaunchSpec, kind: AutostartKind): string {
  const args = launchArgs(spec, kind);
  const out = spec.logDir ? path.posix.join(spec.logDir, `${kind}.out`) : undefined;
  // The daemon's stderr is then daemon.out, which nothing rotates: its log stays in blitz.log alone.
  const env = [...launchEnv(spec), ...(kind === 'daemon' && out ? [['BLITZ_DAEMON_LOG_STDERR', '0'] as const] : [])];
  assertPrintable([...args, ...env.flat(), ...(spec.logDir ? [spec.logDir] : [])]);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- Written by `blitz autostart enable`; `blitz autostart disable` removes it. -->',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key>${string(launchAgentLabel(kind))}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args.map((a) => `    ${string(a)}`),
    '  </array>',
    ...(env.length > 0
      ? ['  <key>EnvironmentVariables</key>', '  <dict>', ...env.map(([k, v]) => `    <key>${xml(k)}</key>${string(v)}`), '  </dict>']
      : []),
    '  <key>RunAtLoad</key><true/>',
    ...(kind === 'daemon'
      ? [
          '  <key>KeepAlive</key>',
          '  <dict>',
          '    <key>SuccessfulExit</key><false/>',
          '  </dict>',
          `  <key>ProcessType</key>${string('Background')}`,
        ]
      : [`  <key>ProcessType</key>${string('Interactive')}`, `  <key>LimitLoadToSessionType</key>${string('Aqua')}`]),
    ...(out ? [`  <key>StandardOutPath</key>${string(out)}`, `  <key>StandardErrorPath</key>${string(out)}`] : []),
    '</dict>',
    '</plist>',
    '',
  ];
  return lines.join('\n');
}
