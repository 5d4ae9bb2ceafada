import { blitzHome, blitzPaths, type BlitzPaths } from '@blitz/core';

/** What a command needs from the outside world, so tests and the real CLI differ only here. */
export interface CliContext {
  paths: BlitzPaths;
  env: NodeJS.ProcessEnv;
  cwd: string;
  out(text: string): void;
  err(text: string): void;
}

export function processContext(): CliContext {
  return {
    paths: blitzPaths(blitzHome(process.env)),
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

/** A failure the user caused or can fix: printed as `blitz: <message>`, exit code 1. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}
