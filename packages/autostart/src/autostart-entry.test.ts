import { describe, expect, it } from 'vitest';
import { autostartEntry, userDirs } from './autostart-entry.js';
import type { LaunchSpec } from './launch-spec.js';
import { desktopExecArg, systemdWord } from './linux-entries.js';
import { parseRegQuery, regAddArgs, regCommandLine, windowsArg } from './windows-run-key.js';

const SPEC: LaunchSpec = {
  node: '/usr/local/bin/node',
  cli: '/opt/blitz/apps/cli/bin/blitz.js',
  path: '/home/ada/.local/bin:/usr/local/bin:/usr/bin:/bin',
  blitzHome: '/home/ada/.blitz',
  logDir: '/home/ada/.blitz/logs',
};
const LINUX = { home: '/home/ada', configHome: '/home/ada/.config' };
const MAC = { home: '/Users/ada', configHome: '/Users/ada/.config' };
const WIN = { home: 'C:\\Users\\ada', configHome: 'C:\\Users\\ada\\.config' };

/** The desktop-entry spec's reading of an Exec value: string unescaping, then the quoting rule. */
function parseDesktopExec(value: string): string[] {
  const unescaped = value
    .replace(/\\([\\sntr])/g, (_, c: string) => ({ '\\': '\\', s: ' ', n: '\n', t: '\t', r: '\r' })[c]!)
    .replace(/%%/g, '%');
  const args: string[] = [];
  for (const m of unescaped.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g))
    args.push(m[1] !== undefined ? m[1].replace(/\\(["`$\\])/g, '$1') : m[2]!);
  return args;
}

/** How a Windows program splits its command line (the MSVCRT rules, as far as these need). */
function parseWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let any = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') {
      let n = 0;
      while (line[i] === '\\') {
        n++;
        i++;
      }
      if (line[i] === '"') {
        current += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) current += '"';
        else quoted = !quoted;
      } else {
        current += '\\'.repeat(n);
        i--;
      }
      any = true;
    } else if (c === '"') {
      quoted = !quoted;
      any = true;
    } else if (/\s/.test(c) && !quoted) {
      if (any) args.push(current);
      current = '';
      any = false;
    } else {
      current += c;
      any = true;
    }
  }
  if (any) args.push(current);
  return args;
}

describe('start-at-login entries, generated for every platform', () => {
  it('Linux: an XDG autostart entry running `blitz tray` with the captured PATH and BLITZ_HOME', () => {
    const entry = autostartEntry('linux', 'tray', SPEC, LINUX);
    expect(entry).toMatchObject({ kind: 'file', path: '/home/ada/.config/autostart/blitz.desktop' });
    expect(entry.kind === 'file' && entry.text).toMatchInlineSnapshot(`
      "# Written by \`blitz autostart enable\`; \`blitz autostart disable\` removes it.
      [Desktop Entry]
      Type=Application
      Name=Blitz
      Comment=Blitz tray: your MCP servers at a glance
      Exec="/usr/bin/env" "PATH=/home/ada/.local/bin:/usr/local/bin:/usr/bin:/bin" "BLITZ_HOME=/home/ada/.blitz" "/usr/local/bin/node" "/opt/blitz/apps/cli/bin/blitz.js" tray
      Terminal=false
      NoDisplay=true
      X-GNOME-Autostart-enabled=true
      "
    `);
  });

  it('Linux: awkward paths survive the Exec quoting and escaping rules', () => {
    const spec: LaunchSpec = { node: '/opt/my node/bin/node', cli: '/home/a "b"/$HOME/`x`/100%/back\\slash/blitz.js' };
    const entry = autostartEntry('linux', 'tray', spec, LINUX);
    const exec = entry.kind === 'file' ? /^Exec=(.*)$/m.exec(entry.text)![1]! : '';
    expect(parseDesktopExec(exec)).toEqual([spec.node, spec.cli, 'tray']);
    expect(desktopExecArg('a\\b')).toBe('"a\\\\\\\\b"');
  });

  it('Linux --daemon-only: a systemd user unit running `blitz daemon`, restarted on failure, enabled by a wants link', () => {
    const entry = autostartEntry('linux', 'daemon', SPEC, LINUX);
    expect(entry).toMatchObject({
      kind: 'file',
      path: '/home/ada/.config/systemd/user/blitz.service',
      enableLink: {
        path: '/home/ada/.config/systemd/user/default.target.wants/blitz.service',
        target: '/home/ada/.config/systemd/user/blitz.service',
      },
    });
    expect(entry.kind === 'file' && entry.text).toMatchInlineSnapshot(`
      "# Written by \`blitz autostart enable --daemon-only\`; \`blitz autostart disable\` removes it.
      [Unit]
      Description=Blitz MCP hub daemon
      StartLimitIntervalSec=120
      StartLimitBurst=5

      [Service]
      Type=exec
      ExecStart="/usr/local/bin/node" "/opt/blitz/apps/cli/bin/blitz.js" "daemon"
      Environment="PATH=/home/ada/.local/bin:/usr/local/bin:/usr/bin:/bin"
      Environment="BLITZ_HOME=/home/ada/.blitz"
      Restart=on-failure
      RestartSec=5
      KillMode=mixed
      TimeoutStopSec=20

      [Install]
      WantedBy=default.target
      "
    `);
    expect(systemdWord('a"b\\c%d$e', { expandsVariables: true })).toBe('"a\\"b\\\\c%%d$$e"');
    expect(systemdWord('$e', { expandsVariables: false })).toBe('"$e"');
  });

  it('macOS: LaunchAgents, the daemon kept alive when it fails, values XML-escaped', () => {
    const tray = autostartEntry('darwin', 'tray', { ...SPEC, blitzHome: '/Users/ada/A&B <home>' }, MAC);
    expect(tray).toMatchObject({ kind: 'file', path: '/Users/ada/Library/LaunchAgents/dev.blitz.tray.plist' });
    expect(tray.kind === 'file' && tray.text).toContain('<key>BLITZ_HOME</key><string>/Users/ada/A&amp;B &lt;home&gt;</string>');
    const daemon = autostartEntry('darwin', 'daemon', SPEC, MAC);
    expect(daemon.kind === 'file' && daemon.text).toMatchInlineSnapshot(`
      "<?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <!-- Written by \`blitz autostart enable\`; \`blitz autostart disable\` removes it. -->
      <plist version="1.0">
      <dict>
        <key>Label</key><string>dev.blitz.daemon</string>
        <key>ProgramArguments</key>
        <array>
          <string>/usr/local/bin/node</string>
          <string>/opt/blitz/apps/cli/bin/blitz.js</string>
          <string>daemon</string>
        </array>
        <key>EnvironmentVariables</key>
        <dict>
          <key>PATH</key><string>/home/ada/.local/bin:/usr/local/bin:/usr/bin:/bin</string>
          <key>BLITZ_HOME</key><string>/home/ada/.blitz</string>
          <key>BLITZ_DAEMON_LOG_STDERR</key><string>0</string>
        </dict>
        <key>RunAtLoad</key><true/>
        <key>KeepAlive</key>
        <dict>
          <key>SuccessfulExit</key><false/>
        </dict>
        <key>ProcessType</key><string>Background</string>
        <key>StandardOutPath</key><string>/home/ada/.blitz/logs/daemon.out</string>
        <key>StandardErrorPath</key><string>/home/ada/.blitz/logs/daemon.out</string>
      </dict>
      </plist>
      "
    `);
  });

  it('Windows: a Run value with quoted paths, set with a reg add command line', () => {
    const spec: LaunchSpec = { node: 'C:\\Program Files\\nodejs\\node.exe', cli: 'C:\\Users\\ada\\blitz\\apps\\cli\\bin\\blitz.js' };
    const entry = autostartEntry('win32', 'tray', spec, WIN);
    expect(entry).toEqual({
      kind: 'registry',
      key: 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run',
      value: 'Blitz',
      data: '"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\ada\\blitz\\apps\\cli\\bin\\blitz.js" tray',
    });
    const data = entry.kind === 'registry' ? entry.data : '';
    expect(parseWindowsCommandLine(data)).toEqual([spec.node, spec.cli, 'tray']);
    const line = regCommandLine(regAddArgs('tray', data));
    expect(line).toBe(
      'reg add "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" /v Blitz /t REG_SZ /d "\\"C:\\Program Files\\nodejs\\node.exe\\" \\"C:\\Users\\ada\\blitz\\apps\\cli\\bin\\blitz.js\\" tray" /f',
    );
    expect(parseWindowsCommandLine(line)).toEqual(['reg', ...regAddArgs('tray', data)]);
  });

  it('Windows: BLITZ_HOME goes in through cmd, the daemon-only value has its own name', () => {
    const entry = autostartEntry('win32', 'daemon', { node: 'C:\\node.exe', cli: 'C:\\b\\blitz.js', blitzHome: 'D:\\blitz home' }, WIN);
    expect(entry).toMatchObject({
      value: 'Blitz daemon',
      data: 'cmd.exe /d /s /c "set "BLITZ_HOME=D:\\blitz home"&& "C:\\node.exe" "C:\\b\\blitz.js" daemon"',
    });
    expect(windowsArg('C:\\dir\\')).toBe('"C:\\dir\\\\"');
    expect(parseRegQuery('\r\nHKEY_CURRENT_USER\\...\\Run\r\n    Blitz daemon    REG_SZ    "C:\\node.exe" x daemon\r\n', 'daemon')).toBe(
      '"C:\\node.exe" x daemon',
    );
    expect(parseRegQuery('    Blitz daemon    REG_SZ    x', 'tray')).toBeUndefined();
  });

  it('refuses a path with a line break rather than write a broken entry', () => {
    expect(() => autostartEntry('linux', 'tray', { ...SPEC, cli: '/a\nb' }, LINUX)).toThrow(/control characters/);
  });

  it('finds the user folders from HOME and an absolute XDG_CONFIG_HOME', () => {
    expect(userDirs({ HOME: '/h' }, '/x')).toEqual({ home: '/h', configHome: '/h/.config' });
    expect(userDirs({ HOME: '/h', XDG_CONFIG_HOME: '/c' }, '/x')).toEqual({ home: '/h', configHome: '/c' });
    expect(userDirs({ HOME: '/h', XDG_CONFIG_HOME: 'relative' }, '/x')).toEqual({ home: '/h', configHome: '/h/.config' });
  });
});
