import fs from 'node:fs/promises';
import path from 'node:path';
import { writeTextAtomic } from '../files/write-text-atomic.js';
import { withFileLock } from '../config/toml-edit/settings-file-lock.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { SecretStore } from './secret-store.js';

interface SecretsFile {
  version: 1;
  secrets: Record<string, string>;
}

/**
 * Secrets in one JSON file, mode 0600, for machines where no keychain answers. Every change
 * is a locked read-modify-write with an atomic replace, since the CLI (login) and the
 * daemon (refresh) write it from different processes.
 */
export function fileSecretStore(file: string): SecretStore {
  const change = async (edit: (secrets: Record<string, string>) => boolean): Promise<boolean> => {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    return withFileLock(`${file}.lock`, async () => {
      const current = await readSecrets(file);
      const changed = edit(current.secrets);
      if (!changed) return false;
      await writeTextAtomic(file, `${JSON.stringify(current, null, 2)}\n`);
      // An existing file keeps its mode on replace: make sure it is (still) private.
      await fs.chmod(file, 0o600);
      return true;
    });
  };
  return {
    kind: 'file',
    async get(account) {
      return (await readSecrets(file)).secrets[account];
    },
    async set(account, value) {
      await change((secrets) => {
        secrets[account] = value;
        return true;
      });
    },
    async delete(account) {
      return change((secrets) => {
        if (!(account in secrets)) return false;
        delete secrets[account];
        return true;
      });
    },
  };
}

async function readSecrets(file: string): Promise<SecretsFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, secrets: {} };
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BlitzError('FAILED_PRECONDITION', `${file} is not valid JSON; delete it and sign in again (blitz mcp login <name>)`, {
      reason: 'SECRETS_FILE_INVALID',
    });
  }
  const secrets = (parsed as Partial<SecretsFile> | null)?.secrets;
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) {
    throw new BlitzError(
      'FAILED_PRECONDITION',
      `${file} is not a Blitz secrets file; delete it and sign in again (blitz mcp login <name>)`,
      { reason: 'SECRETS_FILE_INVALID' },
    );
  }
  const clean = Object.fromEntries(Object.entries(secrets).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { version: 1, secrets: clean };
}
