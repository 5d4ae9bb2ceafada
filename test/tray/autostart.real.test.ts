import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { BLITZ_BIN, runBlitz, tempDir } from '../support/blitz-cli.js';

let home: string;
beforeEach(() => {
  home = tempDir('blitz-autostart-');
});
afterEach(async () => {
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
});

const desktop = () => path.join(home, '.config', 'autostart', 'blitz.desktop');
const unit = () => path.join(home, '.config', 'systemd', 'user', 'blitz.service');

/** An Exec value as the desktop-entry spec reads it: string escapes, `%%`, then the quoting rule. */
function execArgs(text: string): string[] {
  const value = /^Exec=(.*)$/m.exec(text)![1]!.replace(/\\\\/g, '\\').replace(/%%/g, '%');
  return [...value.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(["`$\\])/g, '$1') : m[2]!));
}

/** Why `systemd-analyze verify --user` cannot lint a unit here, or undefined when it can. */
function systemdAnalyzeProblem(): string | undefined {
  if (process.platform !== 'linux') return 'Linux only';
  if (spawnSync('sh', ['-c', 'command -v systemd-analyze']).status !== 0) return 'systemd-analyze is not installed (apt package systemd)';
  const dir = tempDir('blitz-sd-probe-');
  try {
    fs.writeFileSync(path.join(dir, 'probe.service'), `[Service]\nExecStart=${process.execPath} --version\n`);
    const run = spawnSync('systemd-analyze', ['verify', '--user', path.join(dir, 'probe.service')], {
      env: { ...process.env, HOME: dir, XDG_RUNTIME_DIR: dir },
      encoding: 'utf8',
    });
    return run.status === 0
      ? undefined
      : `systemd-analyze verify --user does not run here: ${(run.stderr || run.stdout).trim().split('\n')[0]}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ANALYZE = systemdAnalyzeProblem();

describe.runIf(process.platform === 'linux')('blitz autostart on Linux, under a temporary HOME', () => {
  it('enable writes an XDG autostart entry whose Exec really runs `blitz tray`, with the PATH captured now', async () => {
    expect((await runBlitz(['autostart', 'status'], { home })).stdout).toContain(
      'Blitz does not start at login. Turn it on: blitz autostart enable',
    );
    const enable = await runBlitz(['autostart', 'enable'], { home });
    expect(enable).toMatchObject({ code: 0, stderr: '' });
    expect(enable.stdout).toContain(`wrote ${desktop()}`);
    const args = execArgs(fs.readFileSync(desktop(), 'utf8'));
    expect(args).toEqual(['/usr/bin/env', `PATH=${process.env.PATH}`, `BLITZ_HOME=${home}`, process.execPath, BLITZ_BIN, 'tray']);

    // As the session would start it, with an empty environment: it finds Node, Blitz and its
    // home from the entry alone, and here (no display) says so instead of hanging.
    const run = spawnSync(args[0]!, args.slice(1), { env: {}, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('blitz: no graphical display');

    const status = await runBlitz(['autostart', 'status', '--json'], { home });
    expect(JSON.parse(status.stdout)).toEqual([
      { kind: 'tray', where: desktop(), installed: true, command: expect.stringContaining(`"${BLITZ_BIN}" tray`), current: true },
      { kind: 'daemon', where: unit(), installed: false },
    ]);
  });

  it('--daemon-only swaps the entry for an enabled systemd user unit; disable removes it', async () => {
    await runBlitz(['autostart', 'enable'], { home });
    const enable = await runBlitz(['autostart', 'enable', '--daemon-only'], { home });
    expect(enable.code).toBe(0);
    expect(enable.stdout).toContain('removed the entry that started the tray');
    expect(fs.existsSync(desktop())).toBe(false);
    const text = fs.readFileSync(unit(), 'utf8');
    expect(text).toContain(`ExecStart="${process.execPath}" "${BLITZ_BIN}" "daemon"\n`);
    expect(text).toContain(`Environment="BLITZ_HOME=${home}"\n`);
    expect(text).toContain('Restart=on-failure\n');
    expect(fs.readlinkSync(path.join(home, '.config', 'systemd', 'user', 'default.target.wants', 'blitz.service'))).toBe(unit());

    const status = await runBlitz(['autostart', 'status'], { home });
    expect(status.stdout).toContain(`daemon  on: the daemon alone (\`blitz daemon\`), from ${unit()}`);

    const disable = await runBlitz(['autostart', 'disable'], { home });
    expect(disable.stdout).toBe(`Removed ${unit()}: the daemon alone (\`blitz daemon\`) no longer starts at login.\n`);
    expect(fs.existsSync(unit())).toBe(false);
    expect((await runBlitz(['autostart', 'disable'], { home })).stdout).toBe('Nothing to remove: Blitz does not start at login.\n');
  });

  it.skipIf(ANALYZE !== undefined)(
    `the installed systemd unit passes systemd-analyze verify --user${ANALYZE ? ` — skipped: ${ANALYZE}` : ''}`,
    async () => {
      expect((await runBlitz(['autostart', 'enable', '--daemon-only'], { home })).code).toBe(0);
      const run = spawnSync('systemd-analyze', ['verify', '--user', unit()], {
        env: { ...process.env, HOME: home, XDG_RUNTIME_DIR: home },
        encoding: 'utf8',
      });
      // It exits 0 even for a line it ignores, with a warning: the output must be empty too.
      expect({ status: run.status, output: `${run.stdout}${run.stderr}`.trim() }).toEqual({ status: 0, output: '' });
    },
  );
});
