import fs from 'node:fs';
import path from 'node:path';
import { findOnPath } from './find-on-path.js';

/** Where commands are looked for: a PATH (and PATHEXT on Windows) on a platform. */
export interface CommandSearch {
  path: string;
  pathext?: string;
  platform: NodeJS.Platform | string;
}

/** What a stdio server's command is, where it will be looked for (MCP-40). */
export type CommandCheck =
  | { kind: 'found'; file: string }
  /** `${VAR}` in it: known only once the server starts. */
  | { kind: 'setByVariable' }
  /** Not an executable file (a path), or not on the PATH searched (a name): in words, `explainCause`'s COMMAND_NOT_FOUND. */
  | { kind: 'notFound' };

/**
 * Whether a server's command will be found: a path must be an executable file, a bare name
 * must be on the PATH searched. What `blitz doctor`, `blitz mcp add` and the control API's
 * save answer all say (issue 26.5).
 */
export function checkCommand(command: string, where: CommandSearch): CommandCheck {
  if (command.includes('${')) return { kind: 'setByVariable' };
  if (path.isAbsolute(command) || command.includes('/')) {
    return isExecutable(command) ? { kind: 'found', file: command } : { kind: 'notFound' };
  }
  const found = findOnPath(command, where.path, {
    platform: where.platform as NodeJS.Platform,
    ...(where.pathext ? { pathext: where.pathext } : {}),
  });
  return found ? { kind: 'found', file: found } : { kind: 'notFound' };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
