import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readlink, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from './error-code.js';
import { noSpaceError } from './no-space.js';

/**
 * Writes `text` so readers see the old file or the new one, never half of it: a temporary
 * file beside the real target, fsynced, renamed over it. Through a symlink the target is
 * written and the link stays a link. An existing file keeps its mode; a new one gets 0600
 * (settings may hold secrets) and its directory is created 0700.
 */
export async function writeTextAtomic(file: string, text: string): Promise<void> {
  try {
    await writeAtomic(file, text);
  } catch (err) {
    // The temporary file is gone and the target untouched: say so, naming the file.
    throw noSpaceError(err, file) ?? err;
  }
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const target = await resolveLinks(file);
  const dir = path.dirname(target);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    (err: unknown) => {
      if (errorCode(err) === 'ENOENT') return 0o600;
      throw err;
    },
  );
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
    // The umask may have narrowed the mode given to open.
    await handle.chmod(mode);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDirectory(dir);
}

/**
 * The file a path finally names, following symlinks one by one. Unlike `realpath` this
 * works for a link whose target does not exist yet (the first write creates it).
 */
export async function resolveLinks(file: string): Promise<string> {
  let current = path.resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    try {
      if (!(await lstat(current)).isSymbolicLink()) return current;
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return current;
      throw err;
    }
    current = path.resolve(path.dirname(current), await readlink(current));
  }
  throw Object.assign(new Error(`too many symbolic links at ${file}`), { code: 'ELOOP' });
}

/** Makes the rename itself durable; not every platform can open a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort: the data is already fsynced and the rename atomic.
  }
}
