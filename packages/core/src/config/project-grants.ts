import path from 'node:path';
import { expandHome } from './home-path.js';
import type { Problem } from './problem.js';
import type { ProjectConfig } from './project-config.js';
import type { ServerConfig } from './server-config.js';

/**
 * Fields by which a project's own file would give its servers more power than the safe
 * defaults: skip the approval question, leave the sandbox, write or be told of folders outside
 * the project. A project file sets them only when the user's trust names them (`blitz trust
 * --allow …`), bound to the file as it was trusted (issue 25 point 2). `share` is never taken
 * from a project file at all (server-entry.ts).
 */
export const PROJECT_GRANTS = ['auto_approve', 'sandbox', 'sandbox_write', 'roots'] as const;
export type ProjectGrant = (typeof PROJECT_GRANTS)[number];

/** What each grant lets a server do, as `blitz trust` says it. */
export const GRANT_MEANING: Readonly<Record<ProjectGrant, string>> = {
  auto_approve: 'auto_approve: its tools run without asking you',
  sandbox: 'sandbox = false: it runs outside the sandbox, able to write anywhere you can',
  sandbox_write: 'sandbox_write outside the project: it may write there',
  roots: 'roots outside the project: it is told to work on those folders',
};

export function isProjectGrant(name: string): name is ProjectGrant {
  return (PROJECT_GRANTS as readonly string[]).includes(name);
}

/** A project server as it runs with what was granted, and what it asked for that was not. */
export interface GrantedServer {
  config: ServerConfig;
  withheld: ProjectGrant[];
}

/** The grants a project's server asks for, in PROJECT_GRANTS order. */
export function askedGrants(config: ServerConfig, root: string): ProjectGrant[] {
  return withGrants(config, root, new Set()).withheld;
}

/**
 * A project's server with only `allowed` of what it asks for: the rest falls back to the safe
 * default (asked before each call, sandboxed, the project's folder alone). `sandbox_write`
 * paths inside the project are dropped either way: the project is writable already, and a
 * symlink there could bind a folder outside it.
 */
export function withGrants(config: ServerConfig, root: string, allowed: ReadonlySet<ProjectGrant>): GrantedServer {
  const withheld: ProjectGrant[] = [];
  const result: ServerConfig = { ...config };
  if (config.autoApprove && !allowed.has('auto_approve')) {
    withheld.push('auto_approve');
    result.autoApprove = false;
  }
  const stdio = config.transport.kind === 'stdio';
  if (stdio && !config.sandbox && !allowed.has('sandbox')) {
    withheld.push('sandbox');
    result.sandbox = true;
  }
  if (config.sandboxWrite !== undefined) {
    const outside = config.sandboxWrite.filter((p) => !inside(p, root));
    if (outside.length > 0 && !allowed.has('sandbox_write')) withheld.push('sandbox_write');
    const kept = allowed.has('sandbox_write') ? outside : [];
    if (kept.length > 0) result.sandboxWrite = kept;
    else delete result.sandboxWrite;
  }
  if (Array.isArray(config.roots) && !allowed.has('roots')) {
    const kept = config.roots.filter((p) => inside(p, root));
    if (kept.length < config.roots.length) {
      withheld.push('roots');
      if (kept.length > 0) result.roots = kept;
      // None left: the default, the workspace itself.
      else delete result.roots;
    }
  }
  return { config: result, withheld };
}

/** What a trusted project's server runs without, as the notice the workspace shows (its status, the log, `config show`). */
export function withheldProblems(
  project: ProjectConfig,
  withheld: ReadonlyArray<{ server: ServerConfig; grants: readonly ProjectGrant[] }>,
): Problem[] {
  return withheld.map(({ server, grants }) => {
    const line = project.serverLine(server, grants[0]);
    return {
      severity: 'warning',
      file: server.source.file,
      ...(line === undefined ? {} : { line }),
      server: server.name,
      message: `not granted: ${grants.map((g) => (g === 'sandbox' ? 'sandbox = false' : g)).join(', ')}; it runs with the safe defaults (${grants.map((g) => SAFE_DEFAULT[g]).join(', ')}). To grant: blitz trust --allow ${grants.join(',')} ${project.root}`,
    };
  });
}

const SAFE_DEFAULT: Readonly<Record<ProjectGrant, string>> = {
  auto_approve: 'each call asked',
  sandbox: 'in the sandbox',
  sandbox_write: 'writing only in the project',
  roots: 'the project as its root',
};

/** Whether a path (`~` expanded) is the project's folder or under it, by its words: `..` resolved, links not followed. */
function inside(p: string, root: string): boolean {
  const resolved = path.resolve(expandHome(p));
  const base = path.resolve(root);
  return resolved === base || resolved.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
}
