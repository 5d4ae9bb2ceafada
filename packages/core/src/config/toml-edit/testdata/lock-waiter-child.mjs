// A CLI-like process waiting on the settings lock: it starts the wait and returns, leaving
// nothing but the lock's own timers to keep it alive, as a CLI command's action does.
// argv: <lock file>. Prints "ran" once it has held the lock.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
const { withFileLock } = await import('../settings-file-lock.ts');

void withFileLock(process.argv[2], async () => {
  process.stdout.write('ran\n');
});
