#!/usr/bin/env node
// `npm run pack`: one installable tarball of the `blitz` command (run after `npm run build`).
//
//   node scripts/pack.mjs [--out DIR]      (default DIR: the repository root)
//
// What the package holds, and how it is bundled: scripts/stage-package.mjs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME, stagePackage } from './stage-package.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Staged in a folder of its own, so that two packs at once (a test and a benchmark) never mix.
const STAGE = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-pack-'));

function parseArgs(argv) {
  const out = argv.indexOf('--out');
  return { out: path.resolve(out >= 0 ? argv[out + 1] : ROOT) };
}

async function main() {
  const { out } = parseArgs(process.argv.slice(2));
  await stagePackage(STAGE);
  fs.mkdirSync(out, { recursive: true });
  // One tarball in the folder, so `npm install -g ./blitz-mcp-blitz-*.tgz` names this one.
  const tarballPrefix = `${PACKAGE_NAME.replace(/^@/, '').replace('/', '-')}-`;
  for (const old of fs.readdirSync(out)) if (old.startsWith(tarballPrefix) && old.endsWith('.tgz')) fs.rmSync(path.join(out, old));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: STAGE,
      encoding: 'utf8',
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
    }),
  );
  process.stdout.write(`${path.join(out, packed.filename)}\n`);
}

try {
  await main();
} finally {
  fs.rmSync(STAGE, { recursive: true, force: true });
}
