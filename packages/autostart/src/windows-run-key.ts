import { assertPrintable, launchArgs, type AutostartKind, type LaunchSpec } from './launch-spec.js';

export const RUN_KEY = 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run';

export function runKeyValue(kind: AutostartKind): string {
  return kind === 'tray' ? 'Blitz' : 'Blitz daemon';
}

/**
 * One argument as Windows programs split their command line (the MSVCRT rules): paths
 * and anything with a space or quote quoted, backslashes doubled only before a quote.
 */
export function windowsArg(arg: string): string {
  if (arg !== '' && !/[\s"\\:]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

/**
 * The Run value's command line. A Run value cannot set variables, so a BLITZ_HOME goes in
 * through `cmd /c set`. PATH is not captured here: Windows builds a logon session's PATH
 * from the registry, where installers put it, not from shell profiles.
 */
export function runKeyData(spec: LaunchSpec, kind: AutostartKind): string {
  const args = launchArgs(spec, kind);
  assertPrintable([...args, ...(spec.blitzHome ? [spec.blitzHome] : [])]);
  const command = args.map(windowsArg).join(' ');
  if (spec.blitzHome === undefined) return command;
  // /s: cmd takes what is between the first and the last quote as the command, verbatim.
  return `cmd.exe /d /s /c "set "BLITZ_HOME=${spec.blitzHome}"&& ${command}"`;
}

/** `reg.exe` arguments: run them with execFile (no shell), which quotes each one. */
export function regAddArgs(kind: AutostartKind, data: string): string[] {
  return ['add', RUN_KEY, '/v', runKeyValue(kind), '/t', 'REG_SZ', '/d', data, '/f'];
}

export function regDeleteArgs(kind: AutostartKind): string[] {
  return ['delete', RUN_KEY, '/v', runKeyValue(kind), '/f'];
}

export function regQueryArgs(kind: AutostartKind): string[] {
  return ['query', RUN_KEY, '/v', runKeyValue(kind)];
}

/** The same, as one line to show or paste into a terminal. */
export function regCommandLine(args: readonly string[]): string {
  return ['reg', ...args.map(windowsArg)].join(' ');
}

/** The data of a value in `reg query` output, or undefined when absent. */
export function parseRegQuery(output: string, kind: AutostartKind): string | undefined {
  const name = runKeyValue(kind).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\s*${name}\\s+REG_(?:EXPAND_)?SZ\\s+(.*)$`, 'm').exec(output)?.[1]?.trimEnd();
}
