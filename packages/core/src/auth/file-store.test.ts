import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSecretStore } from './file-store.js';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blitz-secrets-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('fileSecretStore', () => {
  it('keeps secrets in a 0600 file, even one that was made wider', async () => {
    const file = path.join(dir, 'state', 'secrets.json');
    const store = fileSecretStore(file);
    expect(await store.get('a')).toBeUndefined();
    await store.set('a', 'one');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.chmodSync(file, 0o644);
    await store.set('b', 'two');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect([await store.get('a'), await store.get('b')]).toEqual(['one', 'two']);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('deletes one account and says whether it was there', async () => {
    const store = fileSecretStore(path.join(dir, 'secrets.json'));
    await store.set('a', 'one');
    await store.set('b', 'two');
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(await store.get('b')).toBe('two');
  });

  it('survives concurrent writers without losing one', async () => {
    const file = path.join(dir, 'secrets.json');
    await Promise.all(Array.from({ length: 8 }, (_, i) => fileSecretStore(file).set(`k${i}`, `v${i}`)));
    const store = fileSecretStore(file);
    expect(await Promise.all(Array.from({ length: 8 }, (_, i) => store.get(`k${i}`)))).toEqual(
      Array.from({ length: 8 }, (_, i) => `v${i}`),
    );
  });

  it('refuses to write over a file it cannot read, naming it', async () => {
    const file = path.join(dir, 'secrets.json');
    fs.writeFileSync(file, '{ nope', { mode: 0o600 });
    await expect(fileSecretStore(file).set('a', 'x')).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringContaining(file),
    });
    expect(fs.readFileSync(file, 'utf8')).toBe('{ nope');
  });
});
