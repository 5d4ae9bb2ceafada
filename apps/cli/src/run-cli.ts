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
    ctx.err(`blitz: ${err.message}`);
    for (const problem of err.problems) ctx.err(`  ${problem}`);
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
    ctx.err(`blitz: ${err.message}`);
    for (const problem of err.problems) ctx.err(`  ${problem}`);
    process.exitCode = 1;
  } else {
    ctx.err(`blitz: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 70;
  }
}
