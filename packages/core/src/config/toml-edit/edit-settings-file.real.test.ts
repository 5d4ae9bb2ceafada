import { spawn } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlitzError } from '../../errors/blitz-error.js';
import { addServerEntry } from './add-server-entry.js';
import { editSettingsFile, readSettingsText } from './edit-settings-file.js';
import { withServerAdded, withServerRemoved } from './intended-settings.js';
import { removeServerEntry } from './remove-server-entry.js';
import { mountSmallDisk } from '../../testing/full-disk.js';

const childScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'add-server-child.mjs');

let dir: string;
let cache: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'blitz-settings-'));
  cache = await mkdtemp(path.join(tmpdir(), 'blitz-ts-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(cache, { recursive: true, force: true });
});

const entry = (name: string) => ({ name, command: 'node', args: [`${name}.js`] });
const add = (file: string, name: string) =>
  editSettingsFile(
    file,
    (text) => addServerEntry(text, entry(name), file),
    (settings) => withServerAdded(settings, entry(name)),
  );
const serverNames = async (file: string) =>
  ((parse(await readFile(file, 'utf8'))['mcp'] as { servers: { name: string }[] }).servers ?? []).map((s) => s.name);

async function rejection(promise: Promise<unknown>): Promise<BlitzError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BlitzError);
  return err as BlitzError;
}

describe('editSettingsFile', () => {
  it('creates a missing file, and its directory, with mode 0600', async () => {
    const file = path.join(dir, 'nested', 'settings.toml');
    const result = await add(file, 'a');
    expect(result.changed).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('[[mcp.servers]]\nname = "a"\ncommand = "node"\nargs = ["a.js"]\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await readdir(path.dirname(file))).toEqual(['settings.toml']);
  });

  it('lets eight processes adding servers at once all land', async () => {
    const file = path.join(dir, 'settings.toml');
    await writeFile(file, '# shared\n[daemon]\nport = 1\n');
    const go = path.join(dir, 'go');
    const names = Array.from({ length: 8 }, (_, i) => `server-${i}`);
    const env = { ...process.env, BLITZ_TS_CACHE: path.join(cache, 'ts') };
    await new Promise((resolve) => spawn(process.execPath, [childScript], { env, stdio: 'inherit' }).on('exit', resolve));
    const children = names.map((name) =>
      spawn(process.execPath, [childScript, file, name, go], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    const exits = children.map(
      (child) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.on('exit', (code) => resolve({ code, stderr }));
        }),
    );
    await Promise.all(children.map((child) => new Promise((resolve) => child.stdout.once('data', resolve))));
    await writeFile(go, '');
    for (const exit of await Promise.all(exits)) expect(exit).toEqual({ code: 0, stderr: '' });
    expect((await serverNames(file)).sort()).toEqual(names);
    expect((await readFile(file, 'utf8')).startsWith('# shared\n[daemon]\nport = 1\n\n[[mcp.servers]]\n')).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['go', 'settings.toml']);
  });

  it('serialises concurrent edits within one process too', async () => {
    const file = path.join(dir, 'settings.toml');
    const names = Array.from({ length: 8 }, (_, i) => `s${i}`);
    await Promise.all(names.map((name) => add(file, name)));
    expect((await serverNames(file)).sort()).toEqual(names);
  });

  it('writes through a symlink: the link stays, its target changes', async () => {
    const real = path.join(dir, 'dotfiles', 'blitz.toml');
    await add(real, 'a');
    const link = path.join(dir, 'settings.toml');
    await symlink(path.relative(dir, real), link);
    await add(link, 'b');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(path.join('dotfiles', 'blitz.toml'));
    expect(await serverNames(real)).toEqual(['a', 'b']);
    expect((await readdir(path.dirname(real))).sort()).toEqual(['blitz.toml']);
  });

  it('creates the target of a dangling symlink', async () => {
    const real = path.join(dir, 'elsewhere.toml');
    const link = path.join(dir, 'settings.toml');
    await symlink(real, link);
    await add(link, 'a');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await serverNames(real)).toEqual(['a']);
  });

  it('keeps the mode of an existing file', async () => {
    const file = path.join(dir, 'settings.toml');
    await writeFile(file, '');
    await chmod(file, 0o640);
    await add(file, 'a');
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it('refuses a file that does not parse, naming file and line, and leaves it alone', async () => {
    const file = path.join(dir, 'settings.toml');
    const broken = '[daemon]\nport = 1\nname = "unterminated\n';
    await writeFile(file, broken);
    const before = await stat(file);
    const err = await rejection(add(file, 'a'));
    expect(err.code).toBe('FAILED_PRECONDITION');
    expect(err.reason).toBe('SETTINGS_INVALID_TOML');
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/line 3, column \d+/);
    expect(await readFile(file, 'utf8')).toBe(broken);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect(await readdir(dir)).toEqual(['settings.toml']);
  });

  it('refuses to write a result that differs from the intended settings', async () => {
    const file = path.join(dir, 'settings.toml');
    const text = '[[mcp.servers]]\nname = "a"\ncommand = "x"\n[mcp.servers.env]\nK = "v"\n\n[[mcp.servers]]\nname = "b"\ncommand = "y"\n';
    await writeFile(file, text);
    // The toml-patch failure mode: removing one entry also drops a sibling's env table.
    const lossy = (t: string) => removeServerEntry(t, 'b').replace('[mcp.servers.env]\nK = "v"\n', '');
    const err = await rejection(editSettingsFile(file, lossy, (s) => withServerRemoved(s, 'b')));
    expect(err.code).toBe('INTERNAL');
    expect(err.reason).toBe('SETTINGS_EDIT_MISMATCH');
    expect(err.message).toContain(`refusing to write ${file}`);
    expect(err.message).toContain('mcp.servers[0].env: expected {"K":"v"}, got nothing');
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses to write a result that is not TOML', async () => {
    const file = path.join(dir, 'settings.toml');
    await writeFile(file, 'a = 1\n');
    const err = await rejection(
      editSettingsFile(
        file,
        (t) => `${t}b = [\n`,
        (s) => s,
      ),
    );
    expect(err.reason).toBe('SETTINGS_EDIT_MISMATCH');
    expect(err.message).toMatch(/not be valid TOML \(line \d+, column \d+/);
    expect(await readFile(file, 'utf8')).toBe('a = 1\n');
  });

  it('writes nothing when the edit changes nothing', async () => {
    const file = path.join(dir, 'settings.toml');
    await writeFile(file, 'a = 1\n');
    const before = await stat(file);
    expect(
      await editSettingsFile(
        file,
        (t) => t,
        (s) => s,
      ),
    ).toEqual({ changed: false, text: 'a = 1\n' });
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    await editSettingsFile(
      path.join(dir, 'missing.toml'),
      (t) => t,
      (s) => s,
    );
    expect(await readdir(dir)).toEqual(['settings.toml']);
  });

  it('lets an edit error through, writing nothing', async () => {
    const file = path.join(dir, 'settings.toml');
    await writeFile(file, 'a = 1\n');
    const err = await rejection(
      editSettingsFile(
        file,
        (t) => removeServerEntry(t, 'x', file),
        (s) => s,
      ),
    );
    expect(err.code).toBe('NOT_FOUND');
    expect(await readdir(dir)).toEqual(['settings.toml']);
  });
});

describe('readSettingsText', () => {
  it('reads the file, or gives "" when there is none', async () => {
    const file = path.join(dir, 'settings.toml');
    expect(await readSettingsText(file)).toBe('');
    await writeFile(file, 'a = 1\r\n');
    expect(await readSettingsText(file)).toBe('a = 1\r\n');
  });

  it('refuses bad UTF-8 with its line: an edit would write U+FFFD where those bytes were', async () => {
    const file = path.join(dir, 'settings.toml');
    const bad = Buffer.concat([Buffer.from('[daemon]\nport = 1\n# caf'), Buffer.from([0xe9, 0x0a])]);
    await writeFile(file, bad);
    const err = await rejection(add(file, 'a'));
    expect({ code: err.code, reason: err.reason, message: err.message }).toEqual({
      code: 'FAILED_PRECONDITION',
      reason: 'SETTINGS_INVALID_UTF8',
      message: `${file}:3: is not valid UTF-8 (line 3, column 6); save it as UTF-8; nothing was changed`,
    });
    expect((await readFile(file)).equals(bad)).toBe(true);
  });

  it('refuses a directory where the file should be, with a code rather than a system error', async () => {
    const file = path.join(dir, 'settings.toml');
    await mkdir(file);
    const err = await rejection(readSettingsText(file));
    expect({ code: err.code, reason: err.reason }).toEqual({ code: 'FAILED_PRECONDITION', reason: 'SETTINGS_UNREADABLE' });
    expect(err.message).toBe(
      `${file}: is a directory, not a regular file (after following links); Blitz reads only regular files; nothing was changed`,
    );
  });
});

describe('editSettingsFile on a full disk (a real tmpfs)', () => {
  const probe = mountSmallDisk();
  const disk = 'dir' in probe ? probe : undefined;
  afterAll(() => disk?.unmount());
  const skip = disk ? '' : `: skipped, ${(probe as { reason: string }).reason}`;
  const before = `# mine\n[daemon]\nport = 0\n# ${'x'.repeat(12_000)}\n`;

  it.skipIf(!disk)(
    `says so as NO_SPACE, keeps the file and leaves no temporary file, whether the lock or the write finds no room${skip}`,
    async () => {
      const file = path.join(disk!.dir, 'settings.toml');
      await writeFile(file, before);
      for (const room of [0, 4096]) {
        disk!.fill(room);
        const err = await rejection(add(file, 'full'));
        expect(err).toMatchObject({ code: 'NO_SPACE', message: `no space left on the disk holding ${file}; nothing was changed` });
        expect(await readFile(file, 'utf8')).toBe(before);
        expect((await readdir(disk!.dir)).sort()).toEqual(['.filler', 'settings.toml']);
        disk!.empty();
      }
      await add(file, 'roomy');
      expect(await serverNames(file)).toEqual(['roomy']);
    },
  );
});
