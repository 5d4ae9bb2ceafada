import fs from 'node:fs';
import path from 'node:path';
import { BlitzError } from '../errors/blitz-error.js';
import { readTextFileSync, SETTINGS_FILE_MAX_BYTES } from '../files/index.js';
import { isTable } from './field-reader.js';
import { jsonSyntaxError } from './json-syntax-error.js';
import { readProjectConfig, type ProjectConfig } from './project-config.js';
import { isProjectGrant, PROJECT_GRANTS, type ProjectGrant } from './project-grants.js';
import { writeTextAtomic } from '../files/write-text-atomic.js';

interface TrustFile {
  version: 1;
  /** `allow`: the grants of the trust, bound to `hash` (a changed file is trusted for nothing until trusted again). */
  projects: Record<string, { hash: string; trustedAt: string; allow?: string[] }>;
}

/** A project trusted as read, and what its trust grants beyond the safe defaults. */
export interface Trust {
  allowed: ReadonlySet<ProjectGrant>;
}

export interface TrustedProject {
  path: string;
  trustedAt: string;
  /** Whether the project's MCP config files still hash as they did when trusted. */
  current: boolean;
  /** What the trust grants beyond the safe defaults, when anything. */
  allow?: ProjectGrant[];
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
    return this.trustOf(project) !== undefined;
  }

  /** The trust given to exactly what `project` was read as, or undefined. */
  trustOf(project: ProjectConfig): Trust | undefined {
    const entry = this.#read().projects[canonicalProject(project.root)];
    if (entry === undefined || entry.hash !== project.hash) return undefined;
    const allow = Array.isArray(entry.allow)
      ? entry.allow.filter((a): a is ProjectGrant => typeof a === 'string' && isProjectGrant(a))
      : [];
    return { allowed: new Set(allow) };
  }

  /** Trusts the project as it was read (what the user was shown), not as it may be by now, granting `allow`. */
  async trust(project: ProjectConfig, options: { now?: Date; allow?: readonly ProjectGrant[] } = {}): Promise<string> {
    const root = canonicalProject(project.root);
    const data = this.#read();
    const allow = PROJECT_GRANTS.filter((g) => options.allow?.includes(g));
    data.projects[root] = {
      hash: project.hash,
      trustedAt: (options.now ?? new Date()).toISOString(),
      ...(allow.length > 0 ? { allow } : {}),
    };
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
      ...(Array.isArray(entry.allow) && entry.allow.length > 0 ? { allow: entry.allow.filter(isProjectGrant) } : {}),
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
    return new BlitzError(
      'FAILED_PRECONDITION',
      `${this.#file} ${why}; no project counts as trusted until it is fixed or deleted (then trust projects again)`,
      {
        reason: 'TRUST_FILE_UNUSABLE',
      },
    );
  }

  #write(data: TrustFile): Promise<void> {
    return writeTextAtomic(this.#file, `${JSON.stringify(data, null, 2)}\n`);
  }
}
