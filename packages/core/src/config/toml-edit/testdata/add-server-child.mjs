// One of several processes adding a server to the same settings file at once.
// argv: <settings file> <server name> <go file>. Prints "ready", waits for the go file
// so that every child starts editing together, then holds the lock a little while.
// With no arguments it only loads the modules (to warm the transpile cache) and exits.
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';

register('./ts-hooks.mjs', import.meta.url);
const { addServerEntry, editSettingsFile, withServerAdded } = await import('../index.ts');

const [file, name, go] = process.argv.slice(2);
if (file === undefined) process.exit(0);
const entry = { name, command: 'node', args: [`${name}.js`] };
process.stdout.write('ready\n');
while (!existsSync(go)) await sleep(5);

const hold = new Int32Array(new SharedArrayBuffer(4));
await editSettingsFile(
  file,
  (text) => {
    // Widen the read-modify-write window so that an edit without the lock would lose updates.
    Atomics.wait(hold, 0, 0, 20);
    return addServerEntry(text, entry, file);
  },
  (settings) => withServerAdded(settings, entry),
);
