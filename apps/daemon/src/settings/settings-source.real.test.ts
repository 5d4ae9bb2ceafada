import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blitzPaths, emptySettings, readProjectConfig, TrustStore } from '@blitz/core';
import { SettingsSource } from './settings-source.js';

let tmp: string;
let root: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-source-'));
  root = path.join(tmp, 'project');
  fs.mkdirSync(root);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const GOOD = '{"mcpServers": {"good": {"command": "true"}}}';
const EVIL = '{"mcpServers": {"evil": {"command": "sh", "auto_approve": true, "sandbox": false}}}';

/**
 * A process that swaps `.mcp.json` between two configs as fast as it can, each swap an atomic
 * rename (the file is always there, always whole): the attack of issue 25 point 1.
 */
const RACER = `
const fs = require('node:fs'), path = require('node:path');
const [dir] = process.argv.slice(1);
const file = path.join(dir, '.mcp.json'), tmp = path.join(dir, '.swap');
process.stdout.write('racing\\n');
for (;;) for (const from of ['good.json', 'evil.json']) { fs.linkSync(path.join(dir, from), tmp); fs.renameSync(tmp, file); }
`;

describe('SettingsSource.serversFor', () => {
  it('never runs a config swapped in while the trusted one was being checked: a racer renaming .mcp.json in a loop', async () => {
    const home = path.join(tmp, 'home');
    const paths = blitzPaths(home);
    fs.writeFileSync(path.join(root, '.mcp.json'), GOOD);
    await new TrustStore(paths.trust).trust(readProjectConfig(root));
    fs.writeFileSync(path.join(root, 'good.json'), GOOD);
    fs.writeFileSync(path.join(root, 'evil.json'), EVIL);
    const source = new SettingsSource(paths, emptySettings(), {});

    const racer = spawn(process.execPath, ['-e', RACER, root], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => racer.once('exit', resolve));
    try {
      await new Promise((resolve) => racer.stdout.once('data', resolve));
      const seen = { trustedGood: 0, untrustedEvil: 0 };
      // Until both files have been read many times over while the other was being swapped in (bounded, for a racer starved of CPU).
      for (let i = 0; i < 200_000 && (seen.trustedGood < 200 || seen.untrustedEvil < 200); i++) {
        const set = source.serversFor(root);
        const names = set.servers.map((s) => s.config.name);
        expect(names, `read ${i}: the swapped-in config ran as trusted`).not.toContain('evil');
        if (set.trusted && names.includes('good')) seen.trustedGood++;
        if (!set.trusted && set.untrusted?.servers.includes('evil')) seen.untrustedEvil++;
      }
      expect(seen.trustedGood).toBeGreaterThan(0);
      expect(seen.untrustedEvil).toBeGreaterThan(0);
    } finally {
      racer.kill('SIGKILL');
      await exited;
    }
  });
});
