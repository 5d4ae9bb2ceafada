import { CommanderError } from 'commander';
import { ApiError, DaemonUnreachable } from '@blitz/client';
// Narrow imports: `blitz connect`, started by clients again and again, loads no more of core
// than it needs (the barrel brings the SDK, the keychain and search; bench/startup.mjs).
import { isBlitzError } from '@blitz/core/errors';
import { CliError, processContext } from './context.js';
import { createProgram } from './program.js';

const ctx = processContext();
try {
  await (await createProgram(ctx)).parseAsync(process.argv);
} catch (err) {
  if (err instanceof ApiError) {
    printError(err.message, err.problems);
    process.exitCode = 1;
  } else if (err instanceof DaemonUnreachable) {
    ctx.err(`blitz: ${err.message}`);
    process.exitCode = 1;
  } else if (err instanceof CommanderError) {
    process.exitCode = err.exitCode;
  } else if (err instanceof CliError) {
    ctx.err(`blitz: ${err.message}`);
    process.exitCode = err.exitCode;
  } else if (isBlitzError(err)) {
    printError(err.message, err.problems);
    process.exitCode = 1;
  } else {
    ctx.err(`blitz: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 70;
  }
}

/** The message, then each problem that says more than it (a name in use is one problem: the message itself). */
function printError(message: string, problems: readonly string[]): void {
  ctx.err(`blitz: ${message}`);
  for (const problem of problems) if (problem !== message && !problem.endsWith(`: ${message}`)) ctx.err(`  ${problem}`);
}
