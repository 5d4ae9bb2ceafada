import fs from 'node:fs';
import path from 'node:path';
import { BlitzError } from '../errors/blitz-error.js';
import { readTextFileSync, SETTINGS_FILE_MAX_BYTES } from '../files/index.js';
import { isTable } from './field-reader.js';
import { jsonSyntaxError } from './json-syntax-error.js';
import { readProjectConfig, type ProjectConfig } from './project-config.js';
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

/**
 * `$BLITZ_HOME/state/trust.json`: trusted projects by canonical path and config hash (MCP-04).
 * Trust is given to, and checked against, a `ProjectConfig` as it was read — the hash of the
 * very bytes its servers were parsed from — never to a second read of the files, which a
 * process could swap in between (issue 25).
 */
export class TrustStore {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  /** Whether the user trusted exactly what `project` was read as. */
  isTrusted(project: ProjectConfig): boolean {
    const entry = this.#read().projects[canonicalProject(project.root)];
    return entry !== undefined && entry.hash === project.hash;
  }

  /** Trusts the project as it was read (what the user was shown), not as it may be by now. */
  async trust(project: ProjectConfig, now = new Date()): Promise<string> {
    const root = canonicalProject(project.root);
    const data = this.#read();
    data.projects[root] = { hash: project.hash, trustedAt: now.toISOString() };
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
      current: fs.existsSync(root) && entry.hash === readProjectConfig(root).hash,
    }));
  }

  /** A trust file that cannot be read back whole is never written over: it is a `FAILED_PRECONDITION`. */
  #read(): TrustFile {
    const read = readTextFileSync(this.#file, { maxBytes: SETTINGS_FILE_MAX_BYTES });
    if (read.kind === 'missing') return { version: 1, projects: {} };
    if (read.kind === 'refused') throw this.#unusable(read.message);
    let data: unknown;
    try {
      data = JSON.parse(read.text);
    } catch {
      const { line, column, what } = jsonSyntaxError(read.text);
      throw this.#unusable(`is not valid JSON (${what} at line ${line}, column ${column})`);
    }
    const projects = isTable(data) ? (data.projects ?? {}) : undefined;
    if (!isTable(projects)) throw this.#unusable('does not hold {"projects": {…}}');
    return { version: 1, projects: projects as TrustFile['projects'] };
  }

  #unusable(why: string): BlitzError {
    return new BlitzError('FAILED_PRECONDITION', `${this.#file} ${why}; no project counts as trusted until it is fixed or deleted (then trust projects again)`, {
      reason: 'TRUST_FILE_UNUSABLE',
    });
  }

  #write(data: TrustFile): Promise<void> {
    return writeTextAtomic(this.#file, `${JSON.stringify(data, null, 2)}\n`);
  }
}
