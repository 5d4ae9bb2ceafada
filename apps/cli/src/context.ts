import { createInterface } from 'node:readline/promises';
import { blitzHome, blitzPaths, type BlitzPaths } from '@blitz/core/config';
import { OutputRedactor } from './output/output-redactor.js';

/** What a command needs from the outside world, so tests and the real CLI differ only here. */
export interface CliContext {
  paths: BlitzPaths;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Every text `out` and `err` print passes through it (processContext); a command adds the
   * secrets it learns (OAuth tokens). Absent in contexts that print nowhere real.
   */
  redactor?: OutputRedactor;
  out(text: string): void;
  err(text: string): void;
  /**
   * Prints, unmasked, a credential that is the command's answer and no secret of the
   * settings (`blitz settings`' one-time address, whose `?code=` the redactor would mask).
   */
  outCredential?(text: string): void;
  /** Asks a yes/no question on the terminal; absent when stdin or stdout is no terminal (then nothing is granted by asking). */
  ask?(question: string): Promise<boolean>;
}

export function processContext(): CliContext {
  const paths = blitzPaths(blitzHome(process.env));
  const redactor = new OutputRedactor(paths.settings, process.env);
  const line = (text: string) => {
    const safe = redactor.redact(text);
    return safe.endsWith('\n') ? safe : `${safe}\n`;
  };
  return {
    paths,
    env: process.env,
    cwd: process.cwd(),
    redactor,
    // The CLI's only way out for text (`blitz connect`'s protocol goes to stdout directly).
    out: (text) => process.stdout.write(line(text)),
    outCredential: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(line(text)),
    ...(process.stdin.isTTY && process.stdout.isTTY ? { ask: askOnTerminal } : {}),
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

/** A yes only for "y" or "yes"; anything else, an empty line or end of input, is a no. */
async function askOnTerminal(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}
