/**
 * settings.toml on a disk that is full, for real: a small tmpfs filled up (needs the right to
 * mount, so root here; skipped with the reason elsewhere). The CLI and the control API say
 * which disk, change nothing and leave no temporary file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@blitz/client';
import { mountSmallDisk, type SmallDisk } from '../../packages/core/src/testing/full-disk.js';
import { runBlitz } from '../support/blitz-cli.js';
import { startDaemonProcess, type RunningDaemon } from '../support/daemon-process.js';

const probe = mountSmallDisk();
const mountable = 'dir' in probe;
if (mountable) probe.unmount();
const skip = mountable ? '' : `: skipped, ${(probe as { reason: string }).reason}`;

const SETTINGS = `# my settings\n[daemon]\nport = 0\n# ${'x'.repeat(12_000)}\n`;
let disk: SmallDisk;
let home: string;
let daemon: RunningDaemon | undefined;

beforeEach(() => {
  if (!mountable) return;
  disk = mountSmallDisk(1024) as SmallDisk;
  home = disk.dir;
  fs.writeFileSync(path.join(home, 'settings.toml'), SETTINGS);
});

afterEach(async () => {
  if (!mountable) return;
  disk.empty();
  if (daemon) await daemon.stop();
  daemon = undefined;
  disk.unmount();
});

/** What is in BLITZ_HOME besides the filler, logs and state the daemon keeps. */
const leftovers = () => fs.readdirSync(home).filter((f) => !['.filler', 'settings.toml', 'logs', 'state'].includes(f));

describe('a full disk', () => {
  it.skipIf(!mountable)(`blitz mcp add says which disk is full, exits 1 with no stack, and changes nothing${skip}`, async () => {
    disk.fill();
    const result = await runBlitz(['mcp', 'add', 'fx', '--', 'node', 'fx.js'], { home });
    expect(result.stderr).toBe(`blitz: no space left on the disk holding ${path.join(home, 'settings.toml')}; nothing was changed\n`);
    expect(result.code).toBe(1);
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toBe(SETTINGS);
    expect(leftovers()).toEqual([]);
  });

  it.skipIf(!mountable)(`the control API answers NO_SPACE (507), and the next save after room is made goes through${skip}`, async () => {
    daemon = await startDaemonProcess(home);
    disk.fill(4096);
    const err = (await daemon.client.saveServer({ name: 'fx', command: 'node', args: ['fx.js'] }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect({ status: err.status, code: err.code, message: err.message }).toEqual({
      status: 507,
      code: 'NO_SPACE',
      message: `no space left on the disk holding ${path.join(home, 'settings.toml')}; nothing was changed`,
    });
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toBe(SETTINGS);
    expect(leftovers()).toEqual([]);
    disk.empty();
    await daemon.client.saveServer({ name: 'fx', command: 'node', args: ['fx.js'] });
    expect(fs.readFileSync(path.join(home, 'settings.toml'), 'utf8')).toContain('name = "fx"');
  });
});
