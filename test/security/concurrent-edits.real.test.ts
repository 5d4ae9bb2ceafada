import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertNoOrphans } from '../../packages/core/src/testing/no-orphans.js';
import { runBlitz, tempDir } from '../support/blitz-cli.js';
import { startDaemonProcess, writeSettings, type RunningDaemon } from '../support/daemon-process.js';

/**
 * The probe of issue 11 point 5, kept: `blitz mcp add` processes and control-API PUTs at
 * once, round after round; every edit that reported success is in the file, and every
 * comment survives. The lock once lost an edit when a CLI process released it and exited
 * just as a waiter judged it dead: the waiter then moved the fresh lock of another aside.
 * Sized for a loaded two-core machine: a few hundred edits, well under a minute there.
 */
const ROUNDS = 8;
const PER_SIDE = 8;

/** The lock alone, many more times: before the fix a run of these lost bumps (4 of 40 in one round). */
const LOCK_ROUNDS = 6;
const LOCK_HOLDERS = 40;
const LOCK_HOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'lock-holder.mjs');

const COMMENTS = ['# my servers, by hand', '# keep this one', '# trailing words'];
const BASE = `${COMMENTS[0]}\n[daemon]\nport = 0\n\n${COMMENTS[1]}\n[[mcp.servers]]\nname = "first"\ncommand = "node"\nargs = ["first.js"]\n\n${COMMENTS[2]}\n`;

let home: string;
let daemon: RunningDaemon | undefined;

beforeEach(() => {
  home = tempDir('blitz-edits-');
  writeSettings(home, BASE);
});

afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await assertNoOrphans();
  fs.rmSync(home, { recursive: true, force: true });
});

interface Outcome {
  name: string;
  ok: boolean;
  error?: string;
}

function serverNames(text: string): string[] {
  const doc = parse(text) as { mcp?: { servers?: Array<{ name: string }> } };
  return (doc.mcp?.servers ?? []).map((s) => s.name);
}

describe('concurrent edits of settings.toml', () => {
  it(
    `keeps every edit of ${ROUNDS} rounds of ${PER_SIDE} blitz mcp add and ${PER_SIDE} API PUTs at once`,
    { timeout: 300_000 },
    async () => {
      daemon = await startDaemonProcess(home);
      const expected = ['first'];
      for (let round = 0; round < ROUNDS; round++) {
        const edits: Array<Promise<Outcome>> = [];
        for (let i = 0; i < PER_SIDE; i++) {
          const cli = `cli-${round}-${i}`;
          edits.push(
            runBlitz(['mcp', 'add', cli, 'node', `${cli}.js`], { home }).then((r) => ({ name: cli, ok: r.code === 0, error: r.stderr })),
          );
          const api = `api-${round}-${i}`;
          edits.push(
            daemon.client.saveServer({ name: api, command: 'node', args: [`${api}.js`] }).then(
              () => ({ name: api, ok: true }),
              (err: Error) => ({ name: api, ok: false, error: err.message }),
            ),
          );
        }
        const outcomes = await Promise.all(edits);
        expect(outcomes.filter((o) => !o.ok)).toEqual([]);
        expected.push(...outcomes.map((o) => o.name));
        const text = fs.readFileSync(path.join(home, 'settings.toml'), 'utf8');
        const names = serverNames(text);
        expect({ round, missing: expected.filter((n) => !names.includes(n)) }).toEqual({ round, missing: [] });
        expect(names).toHaveLength(expected.length);
        for (const comment of COMMENTS) expect(text).toContain(comment);
      }
      // The daemon applied what it wrote and what the CLI wrote.
      const listed = await daemon.client.listServerConfigs();
      expect(listed.servers.map((s) => s.name).sort()).toEqual([...expected].sort());
      // Nothing left beside the file: no lock, no temporary file, no takeover claim.
      expect(fs.readdirSync(home).sort()).toEqual(['logs', 'settings.toml', 'state']);
    },
  );
});

describe('the settings lock', () => {
  it(
    `loses no update of ${LOCK_ROUNDS} rounds of ${LOCK_HOLDERS} processes that each take it once and exit at once`,
    { timeout: 300_000 },
    async () => {
      const counter = path.join(home, 'counter');
      for (let round = 0; round < LOCK_ROUNDS; round++) {
        fs.writeFileSync(counter, '0');
        const go = path.join(home, `go-${round}`);
        const holders = Array.from({ length: LOCK_HOLDERS }, () =>
          spawn(process.execPath, [LOCK_HOLDER, counter, go], { stdio: ['ignore', 'pipe', 'pipe'] }),
        );
        const exits = holders.map(
          (child) =>
            new Promise<{ code: number | null; stderr: string }>((resolve) => {
              let stderr = '';
              child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
              child.on('exit', (code) => resolve({ code, stderr }));
            }),
        );
        await Promise.all(holders.map((child) => new Promise((resolve) => child.stdout.once('data', resolve))));
        fs.writeFileSync(go, '');
        expect((await Promise.all(exits)).filter((e) => e.code !== 0)).toEqual([]);
        expect({ round, count: Number(fs.readFileSync(counter, 'utf8')) }).toEqual({ round, count: LOCK_HOLDERS });
        fs.rmSync(go);
      }
      expect(fs.readdirSync(home).sort()).toEqual(['counter', 'settings.toml']);
    },
  );
});
