import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '@blitz/clock';
import { tomlParses } from '@blitz/core';
import { startInProcessDaemon, type InProcessDaemon } from './testing/in-process-daemon.js';
import { DEFAULT_DEBOUNCE_MS, DEFAULT_POLL_MS } from './watch/index.js';

// Issue 27 point 5: one settings edit is one parse of settings.toml and one apply. The writer
// (the control API) tells the daemon what it writes; the watcher picks up edits made by others.
// Parses are counted by the real config layer (`tomlParses`: texts smol-toml really parsed in
// this process), applies by the daemon (`settingsApplies`: each time it took settings.toml in).

const SETTINGS = '# my servers\n[[mcp.servers]]\nname = "first"\ncommand = "node"\ndisabled = true\n';

const clock = new FakeClock();
let running: InProcessDaemon;
let file: string;

beforeAll(async () => {
  running = await startInProcessDaemon('blitz-settings-edits', SETTINGS, clock);
  file = path.join(running.home, 'settings.toml');
  await watcherLooks();
});

afterAll(() => running.stop());

/** The watcher looks at settings.toml: its poll finds a new stat, its debounce reads the bytes. */
async function watcherLooks(): Promise<void> {
  await clock.advanceSettling(DEFAULT_POLL_MS + DEFAULT_DEBOUNCE_MS, () => new Promise((resolve) => setImmediate(resolve)));
}

/** Parses and applies since `before`. */
function since(before: { parses: number; applies: number }): { parses: number; applies: number } {
  return { parses: tomlParses() - before.parses, applies: running.daemon.settingsApplies - before.applies };
}

function counts(): { parses: number; applies: number } {
  return { parses: tomlParses(), applies: running.daemon.settingsApplies };
}

describe('a settings edit', () => {
  it('through the control API is parsed once and applied once, and the watcher does not take it in again', async () => {
    const before = counts();
    await running.client.saveServer({ name: 'added', command: process.execPath, args: ['-e', ''], disabled: true });
    expect(since(before)).toEqual({ parses: 1, applies: 1 });
    await watcherLooks();
    await watcherLooks();
    expect(since(before)).toEqual({ parses: 1, applies: 1 });
    expect(fs.readFileSync(file, 'utf8')).toContain('name = "added"');
    expect((await running.client.status()).servers.map((s) => s.name)).toEqual(['first', 'added']);
  });

  it('a replace and a removal through the control API: one parse and one apply each', async () => {
    for (const edit of [
      () => running.client.saveServer({ name: 'added', command: process.execPath, args: ['-e', '1'], disabled: true }, 'added'),
      () => running.client.removeServer('first'),
    ]) {
      const before = counts();
      await edit();
      await watcherLooks();
      expect(since(before)).toEqual({ parses: 1, applies: 1 });
    }
    expect((await running.client.status()).servers.map((s) => s.name)).toEqual(['added']);
  });

  it('written by another process is picked up by the watcher: parsed once and applied once', async () => {
    const before = counts();
    const entry = '\n[[mcp.servers]]\nname = "by-hand"\ncommand = "node"\ndisabled = true\n';
    await promisify(execFile)(process.execPath, ['-e', `require('node:fs').appendFileSync(process.argv[1], process.argv[2])`, file, entry]);
    expect(since(before)).toEqual({ parses: 0, applies: 0 });
    await watcherLooks();
    expect(since(before)).toEqual({ parses: 1, applies: 1 });
    await watcherLooks();
    expect(since(before)).toEqual({ parses: 1, applies: 1 });
    expect((await running.client.status()).servers.map((s) => s.name)).toEqual(['added', 'by-hand']);
  });
});
