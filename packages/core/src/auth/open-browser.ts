import { spawn } from 'node:child_process';

/** Opens a URL in the user's browser; false when no browser could be started. */
export type BrowserOpener = (url: string) => Promise<boolean>;

/**
 * The platform's own opener. On Windows `rundll32 url.dll,FileProtocolHandler` rather than
 * `cmd /c start`: cmd would read the `&` between query parameters as a command separator.
 */
export function systemBrowserOpener(platform: NodeJS.Platform = process.platform): BrowserOpener {
  const [command, ...prefix] =
    platform === 'darwin' ? ['open'] : platform === 'win32' ? ['rundll32', 'url.dll,FileProtocolHandler'] : ['xdg-open'];
  return (url) =>
    new Promise((resolve) => {
      // Detached and unreferenced: the browser outlives the sign-in, and we never wait on it.
      const child = spawn(command!, [...prefix, url], { stdio: 'ignore', detached: true, windowsHide: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    });
}

/**
 * Why no browser on this machine can reach our 127.0.0.1 callback: over SSH the browser
 * runs elsewhere, and without a display there is none to open.
 */
export function remoteSession(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): 'ssh' | 'no-display' | undefined {
  if (env.SSH_CONNECTION || env.SSH_TTY) return 'ssh';
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no-display';
  return undefined;
}
