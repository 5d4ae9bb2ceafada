import { spawn } from 'node:child_process';

/**
 * The command that opens a file in the user's default application: `xdg-open` on Linux,
 * `open -t` (the default text editor: a .toml file often has no other) on macOS, `start`
 * on Windows.
 */
export function openCommand(file: string, platform: NodeJS.Platform): { command: string; args: string[]; verbatim?: boolean } {
  switch (platform) {
    case 'darwin':
      return { command: 'open', args: ['-t', file] };
    case 'win32':
      // `start` is a cmd built-in whose first quoted argument is a window title, hence "".
      // cmd does not split arguments the C way, so the line is passed verbatim (/s: as is
      // between the outer quotes).
      return { command: 'cmd.exe', args: ['/d', '/s', '/c', `"start "" "${file}""`], verbatim: true };
    default:
      return { command: 'xdg-open', args: [file] };
  }
}

/**
 * The command that opens an address in the default browser. On Windows `rundll32
 * url.dll,FileProtocolHandler`, not `start`: cmd would read a `&` in the query as a
 * command separator.
 */
export function openUrlCommand(url: string, platform: NodeJS.Platform): { command: string; args: string[] } {
  switch (platform) {
    case 'darwin':
      return { command: 'open', args: [url] };
    case 'win32':
      return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
    default:
      return { command: 'xdg-open', args: [url] };
  }
}

/** Enough for the opener to fail fast (no handler); longer means it is showing the file. */
const OPENER_WAIT_MS = 5_000;

/** Opens the file; rejects when the opener is missing or says it failed. */
export function openFile(file: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  return runOpener(openCommand(file, platform));
}

/**
 * Opens the address in the default browser; rejects when the opener is missing or says it
 * failed, without the address in the error: it may hold a one-time code.
 */
export function openUrl(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  return runOpener({ ...openUrlCommand(url, platform), quiet: true });
}

function runOpener({
  command,
  args,
  verbatim,
  quiet,
}: {
  command: string;
  args: string[];
  verbatim?: boolean;
  quiet?: boolean;
}): Promise<void> {
  return new Promise((resolve, reject) => {
    // Detached: the editor it starts belongs to the desktop, not to the tray.
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true, windowsVerbatimArguments: verbatim ?? false });
    const timer = setTimeout(() => {
      child.unref();
      resolve();
    }, OPENER_WAIT_MS);
    timer.unref();
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error((err as NodeJS.ErrnoException).code === 'ENOENT' ? `${command} is not installed` : `${command}: ${err.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${quiet ? command : `${command} ${args.join(' ')}`} exited with code ${code}`));
    });
  });
}
