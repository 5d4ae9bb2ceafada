import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autostartControl, autostartStatus, enableAutostart, removeAutostart, type AutostartSystem, type RegResult } from './autostart.js';
import type { LaunchSpec } from './launch-spec.js';
import { RUN_KEY } from './windows-run-key.js';

const SPEC: LaunchSpec = { node: process.execPath, cli: '/opt/blitz/bin/blitz.js', path: '/usr/bin:/bin' };

let home: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-autostart-')));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

function system(
  platform: NodeJS.Platform,
  reg: AutostartSystem['reg'] = async () => ({ code: 1, stdout: '', stderr: 'no reg here' }),
): AutostartSystem {
  return { platform, dirs: { home, configHome: path.join(home, '.config') }, reg };
}

describe('installing start-at-login entries under a temporary HOME', () => {
  it('Linux: enable writes the desktop entry; --daemon-only swaps it for the enabled systemd unit; disable removes them', async () => {
    const sys = system('linux');
    const desktop = path.join(home, '.config/autostart/blitz.desktop');
    const unit = path.join(home, '.config/systemd/user/blitz.service');
    const wants = path.join(home, '.config/systemd/user/default.target.wants/blitz.service');

    expect(await enableAutostart(sys, 'tray', SPEC)).toMatchObject({ removed: [] });
    expect(fs.readFileSync(desktop, 'utf8')).toContain(
      `Exec="/usr/bin/env" "PATH=/usr/bin:/bin" "${process.execPath}" "/opt/blitz/bin/blitz.js" tray`,
    );
    expect(await autostartStatus(sys, SPEC)).toEqual([
      {
        kind: 'tray',
        where: desktop,
        installed: true,
        command: `"/usr/bin/env" "PATH=/usr/bin:/bin" "${process.execPath}" "/opt/blitz/bin/blitz.js" tray`,
        current: true,
      },
      { kind: 'daemon', where: unit, installed: false },
    ]);

    expect(await enableAutostart(sys, 'daemon', SPEC)).toMatchObject({ removed: ['tray'] });
    expect(fs.existsSync(desktop)).toBe(false);
    expect(fs.readlinkSync(wants)).toBe(unit);
    const status = await autostartStatus(sys, { ...SPEC, path: '/elsewhere' });
    expect(status[1]).toMatchObject({ kind: 'daemon', installed: true, current: false });

    expect(await removeAutostart(sys, 'daemon')).toBe(true);
    expect(fs.existsSync(unit) || fs.existsSync(wants)).toBe(false);
    // The folder enable made for the link goes with it when nothing else is in it.
    expect(fs.existsSync(path.dirname(wants))).toBe(false);
    expect(await removeAutostart(sys, 'daemon')).toBe(false);

    // Another unit's link in it: the folder stays, with that link.
    await enableAutostart(sys, 'daemon', SPEC);
    fs.symlinkSync('/etc/other.service', path.join(path.dirname(wants), 'other.service'));
    expect(await removeAutostart(sys, 'daemon')).toBe(true);
    expect(fs.readdirSync(path.dirname(wants))).toEqual(['other.service']);
  });

  it('macOS: the LaunchAgent plist lands in ~/Library/LaunchAgents', async () => {
    const sys = system('darwin');
    await enableAutostart(sys, 'daemon', SPEC);
    const status = await autostartStatus(sys, SPEC);
    expect(status[1]).toEqual({
      kind: 'daemon',
      where: path.join(home, 'Library/LaunchAgents/dev.blitz.daemon.plist'),
      installed: true,
      command: `${process.execPath} /opt/blitz/bin/blitz.js daemon`,
      current: true,
    });
  });

  it('Windows: reg add / query / delete on the Run key', async () => {
    const values = new Map<string, string>();
    const calls: string[][] = [];
    const reg = async (args: readonly string[]): Promise<RegResult> => {
      calls.push([...args]);
      const name = args[args.indexOf('/v') + 1]!;
      switch (args[0]) {
        case 'add':
          values.set(name, args[args.indexOf('/d') + 1]!);
          return { code: 0, stdout: 'The operation completed successfully.', stderr: '' };
        case 'query':
          return values.has(name)
            ? { code: 0, stdout: `\r\n${RUN_KEY}\r\n    ${name}    REG_SZ    ${values.get(name)}\r\n`, stderr: '' }
            : { code: 1, stdout: '', stderr: 'ERROR: not found' };
        default:
          values.delete(name);
          return { code: 0, stdout: '', stderr: '' };
      }
    };
    const sys = system('win32', reg);
    const spec: LaunchSpec = { node: 'C:\\node\\node.exe', cli: 'C:\\blitz\\blitz.js' };
    const control = autostartControl(sys, spec);
    expect(await control.isEnabled()).toBe(false);
    await control.setEnabled(true);
    expect(await control.isEnabled()).toBe(true);
    expect(calls).toContainEqual([
      'add',
      RUN_KEY,
      '/v',
      'Blitz',
      '/t',
      'REG_SZ',
      '/d',
      '"C:\\node\\node.exe" "C:\\blitz\\blitz.js" tray',
      '/f',
    ]);
    expect((await autostartStatus(sys, spec))[0]).toMatchObject({
      installed: true,
      current: true,
      command: '"C:\\node\\node.exe" "C:\\blitz\\blitz.js" tray',
    });
    await control.setEnabled(false);
    expect(values.size).toBe(0);
  });

  it('the tray’s Start at login item turns only the tray entry on and off', async () => {
    const sys = system('linux');
    await enableAutostart(sys, 'daemon', SPEC);
    const control = autostartControl(sys, SPEC);
    expect(await control.isEnabled()).toBe(false);
    await control.setEnabled(true);
    expect((await autostartStatus(sys)).map((s) => [s.kind, s.installed])).toEqual([
      ['tray', true],
      ['daemon', false],
    ]);
  });

  it('says so on a platform without a start-at-login mechanism', async () => {
    await expect(enableAutostart(system('aix'), 'tray', SPEC)).rejects.toThrow('starting at login is not supported on aix');
  });
});
