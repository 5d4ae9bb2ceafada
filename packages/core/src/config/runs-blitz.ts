const BLITZ_PROGRAM = /^blitz(\.(js|mjs|cjs|cmd|exe|ps1))?$/i;

/**
 * A command line that runs `blitz connect` (`blitz connect`, `node …/blitz.cjs connect`): a
 * client's way to Blitz, never a server for Blitz to run — it would be Blitz inside itself.
 */
export function runsBlitzConnect(command: string | undefined, args: readonly string[] = []): boolean {
  if (command === undefined) return false;
  const words = [command, ...args];
  const connect = words.indexOf('connect');
  return connect > 0 && words.slice(0, connect).some((w) => BLITZ_PROGRAM.test(w.split(/[\\/]/).pop() ?? ''));
}
