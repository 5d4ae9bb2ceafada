import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_CONFIG_FILES } from './project-config.js';
import { writeTextAtomic } from './write-text-atomic.js';

interface TrustFile {
  version: 1;
  projects: Record<string, { hash: string; trustedAt: string }>;
}

export interface TrustedProject {
  path: string;
  trustedAt: string;
  /** Whether the project's MCP config files still hash as they did when trusted. */
  current: boolean;
}

/** A project's identity for trust: its real path, symlinks resolved. */
export function canonicalProject(dir: string): string {
  return fs.realpathSync.native(path.resolve(dir));
}

/** Hash of every MCP config file of a project (names and contents); any edit changes it. */
export function projectConfigHash(root: string): string {
  const hash = crypto.createHash('sha256');
  for (const rel of PROJECT_CONFIG_FILES) {
    let content: Buffer;
    try {
      content = fs.readFileSync(path.join(root, rel));
    } catch {
      continue;
    }
    hash.update(`${rel}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

/** `$BLITZ_HOME/state/trust.json`: trusted projects by canonical path and config hash (MCP-04). */
export class TrustStore {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  isTrusted(dir: string): boolean {
    const root = canonicalProject(dir);
    const entry = this.#read().projects[root];
    return entry !== undefined && entry.hash === projectConfigHash(root);
  }

  async trust(dir: string, now = new Date()): Promise<string> {
    const root = canonicalProject(dir);
    const data = this.#read();
    data.projects[root] = { hash: projectConfigHash(root), trustedAt: now.toISOString() };
    await this.#write(data);
    return root;
  }

  /** Returns whether the project had been trusted. */
  async revoke(dir: string): Promise<boolean> {
    const data = this.#read();
    const root = fs.existsSync(dir) ? canonicalProject(dir) : path.resolve(dir);
    if (!(root in data.projects)) return false;
    delete data.projects[root];
    await this.#write(data);
    return true;
  }

  list(): TrustedProject[] {
    return Object.entries(this.#read().projects).map(([root, entry]) => ({
      path: root,
      trustedAt: entry.trustedAt,
      current: fs.existsSync(root) && entry.hash === projectConfigHash(root),
    }));
  }

  #read(): TrustFile {
    let text: string;
    try {
      text = fs.readFileSync(this.#file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, projects: {} };
      throw err;
    }
    const data = JSON.parse(text) as TrustFile;
    return { version: 1, projects: data.projects ?? {} };
  }

  #write(data: TrustFile): Promise<void> {
    return writeTextAtomic(this.#file, `${JSON.stringify(data, null, 2)}\n`);
  }
}
