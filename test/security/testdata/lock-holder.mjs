// One of many processes bumping a counter under the settings lock, then exiting at once:
// the moment a waiter could take its released lock for a dead one's.
// argv: <counter file> <go file>. Prints "ready", waits for the go file, bumps once, exits.
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
// The lock's own module, not @blitz/core's index: hundreds of these start per test.
import { withFileLock } from '../../../packages/core/dist/config/toml-edit/settings-file-lock.js';

const [file, go] = process.argv.slice(2);
process.stdout.write('ready\n');
while (!existsSync(go)) await sleep(2);
await withFileLock(
  `${file}.lock`,
  async () => {
    const count = Number(await readFile(file, 'utf8'));
    await writeFile(`${file}.${process.pid}`, String(count + 1));
    await rename(`${file}.${process.pid}`, file);
  },
  { timeoutMs: 60_000 },
);
process.exit(0);
