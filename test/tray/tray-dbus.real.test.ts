import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../apps/tray/src/testing/fake-helper.js';
import { fixturePath } from '../../packages/core/src/testing/fixture-servers.js';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';
import { nodeServer, stopLeftDaemon } from './tray-process.js';

/** Why the real helper cannot run here, or undefined when it can. */
function missing(): string | undefined {
  if (process.platform !== 'linux') return `Linux only, this is ${process.platform}`;
  for (const tool of ['xvfb-run', 'dbus-run-session', 'gdbus', 'xauth']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed (scripts/install-system-packages.sh)`;
  }
  if (!/libayatana-appindicator3\.so/.test(spawnSync('ldconfig', ['-p'], { encoding: 'utf8' }).stdout ?? ''))
    return 'libayatana-appindicator3-1 is not installed (scripts/install-system-packages.sh)';
  return undefined;
}

const SKIP = missing();

let home: string;
let cwd: string;
let daemon: RunningDaemon | undefined;
let session: ChildProcess | undefined;

beforeEach(() => {
  home = tempDir('blitz-tray-dbus-');
  // No ./traybin here: systray2 runs its own helper from node_modules.
  cwd = tempDir('blitz-tray-dbus-cwd-');
  writeSettings(
    home,
    `# kept\n[daemon]\nport = 0\n\n${nodeServer('github', fixturePath('env-dump'))}\n${nodeServer('fs', fixturePath('env-dump'))}`,
  );
});

afterEach(async () => {
  const sessions: number[] = [];
  if (session?.pid !== undefined) {
    sessions.push(session.pid);
    // The whole session: xvfb-run killed alone would leave its Xvfb behind.
    if (session.exitCode === null) {
      try {
        process.kill(-session.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }
  session = undefined;
  await daemon?.stop();
  daemon = undefined;
  sessions.push(...(await stopLeftDaemon(home)));
  await assertNoOrphans({ sessions, timeoutMs: 20_000 });
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(cwd, { recursive: true, force: true });
});

interface DbusItem {
  id: number;
  label: string;
  visible: boolean;
}

/** The items of a `GetLayout` answer in GVariant text: `(id, {props}, [children])`, depth first. */
function parseLayout(text: string): DbusItem[] {
  return [...text.matchAll(/\((\d+), \{([^{}]*)\}/g)]
    .map((m) => ({
      id: Number(m[1]),
      label: /'label': <'((?:[^'\\]|\\.)*)'>/.exec(m[2]!)?.[1] ?? '',
      visible: !m[2]!.includes("'visible': <false>"),
      separator: m[2]!.includes("'type': <'separator'>"),
    }))
    .filter((i) => i.id !== 0 && !i.separator)
    .map(({ id, label, visible }) => ({ id, label, visible }));
}

describe('the tray over D-Bus, with the real systray helper', () => {
  it.skipIf(SKIP !== undefined)(
    `reads the menu over com.canonical.dbusmenu and a click toggles the server in settings.toml (xvfb-run, dbus-run-session)${SKIP ? ` — skipped: ${SKIP}` : ''}`,
    async () => {
      daemon = await startDaemonProcess(home);
      // The bus address comes first on stdout; then `exec` makes the shell the tray itself.
      session = spawn(
        'xvfb-run',
        [
          '-a',
          'dbus-run-session',
          '--',
          'sh',
          '-c',
          `echo "BUS=$DBUS_SESSION_BUS_ADDRESS"; exec "${process.execPath}" "${BLITZ_BIN}" tray`,
        ],
        {
          cwd,
          env: { PATH: process.env.PATH, HOME: home, BLITZ_HOME: home, NO_AT_BRIDGE: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
          // Its own session, so everything xvfb-run and dbus-run-session start can be found and ended.
          detached: true,
        },
      );
      // Read apart: dbus-daemon's warnings on stderr may land mid-line with the address on stdout.
      let stdout = '';
      let output = '';
      session.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        output += d.toString();
      });
      session.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => session!.once('exit', (code) => resolve(code)));
      const bus = await waitFor(() => /^BUS=(\S+)$/m.exec(stdout)?.[1], 'the session bus address', 20_000).catch((err: Error) => {
        throw new Error(`${err.message}\n${output}`);
      });
      const gdbus = (...args: string[]) =>
        execFileSync('gdbus', [...args], {
          env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus },
          encoding: 'utf8',
          timeout: 10_000,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      const dbusCall = (dest: string, object: string, method: string, ...args: string[]) =>
        gdbus('call', '--session', '--timeout', '5', '--dest', dest, '--object-path', object, '--method', method, '--', ...args);

      // The helper's bus name: the connection whose process is systray2's helper.
      const helperName = await waitFor(
        () => {
          const names =
            dbusCall('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.ListNames').match(/:\d+\.\d+/g) ?? [];
          return names.find((name) => {
            let pid: string | undefined;
            try {
              pid = /(\d+)\D*$/.exec(
                dbusCall('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.GetConnectionUnixProcessID', name),
              )?.[1];
            } catch {
              return false; // Gone since the listing: each gdbus call is a connection of its own.
            }
            // By its executable: it runs under the program name "Blitz", so its command line says only that.
            let exe = '';
            try {
              exe = pid === undefined ? '' : fs.readlinkSync(`/proc/${pid}/exe`);
            } catch {
              return false;
            }
            return exe.endsWith('tray_linux_release');
          });
        },
        'the tray helper on the bus',
        30_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}\n${output}`);
      });

      // Its objects, by introspection: a StatusNotifierItem, and the menu it exports (once registered).
      const introspect = () => {
        let node = '';
        const interfaces = new Map<string, string>();
        for (const line of gdbus('introspect', '--session', '--dest', helperName, '--object-path', '/', '--recurse').split('\n')) {
          node = /^\s*node (\S+) \{/.exec(line)?.[1] ?? node;
          const iface = /^\s*interface (\S+) \{/.exec(line)?.[1];
          if (iface) interfaces.set(iface, node);
        }
        return interfaces.has('com.canonical.dbusmenu') && interfaces;
      };
      const interfaces = await waitFor(introspect, 'the exported menu', 20_000);
      expect(interfaces.get('org.kde.StatusNotifierItem')).toBeDefined();
      const menuPath = interfaces.get('com.canonical.dbusmenu')!;
      const layout = () => parseLayout(dbusCall(helperName, menuPath, 'com.canonical.dbusmenu.GetLayout', '0', '-1', '[]'));
      const shown = () =>
        layout()
          .filter((i) => i.visible)
          .map((i) => i.label);
      const click = (label: string) => {
        const item = layout().find((i) => i.visible && i.label === label);
        if (!item) throw new Error(`no item "${label}" in ${JSON.stringify(shown())}`);
        dbusCall(helperName, menuPath, 'com.canonical.dbusmenu.Event', String(item.id), 'clicked', '<0>', '0');
      };

      await waitFor(() => shown().includes('☑ fs'), 'the servers in the menu', 20_000);
      // The item's Title (which panels show as its tooltip) is Blitz, not the helper's file name.
      const sniPath = interfaces.get('org.kde.StatusNotifierItem')!;
      expect(dbusCall(helperName, sniPath, 'org.freedesktop.DBus.Properties.Get', 'org.kde.StatusNotifierItem', 'Title')).toMatch(
        /^\(<'Blitz'>,\)/,
      );
      expect(shown()).toEqual([
        'Blitz — 2 servers ready (idle)',
        'MCP servers',
        '☑ github',
        '☑ fs',
        'Open settings',
        '☐ Start at login',
        'Quit tray',
        'Quit Blitz',
      ]);

      click('☑ github');
      await waitFor(() => shown().includes('☐ github'), 'github unchecked in the menu');
      const settings = fs.readFileSync(path.join(home, 'settings.toml'), 'utf8');
      expect(settings).toMatch(/^# kept\n/);
      expect(settings.slice(settings.indexOf('name = "github"'), settings.indexOf('name = "fs"'))).toContain('disabled = true');
      expect((await daemon.client.status()).servers.map((s) => [s.name, s.enabled])).toEqual([
        ['github', false],
        ['fs', true],
      ]);
      expect(shown()[0]).toBe('Blitz — 1 server ready (idle)');

      click('Quit tray');
      expect(await exited).toBe(0);
    },
    90_000,
  );
});
