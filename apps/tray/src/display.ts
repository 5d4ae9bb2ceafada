import { helperName } from './systray/helper-binary.js';

/** What to run instead, when there is no desktop to put an icon on. */
export const HEADLESS_HINT =
  'Run the daemon without a tray: blitz daemon start\nStart it at login without a desktop: blitz autostart enable --daemon-only';

/**
 * Why no tray icon can be shown here, or undefined when one can. Checked before anything
 * starts: without a display systray2's helper exits and its `ready()` never settles.
 */
export function displayProblem(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  if (!helperName(platform)) return `the tray icon is not supported on ${platform}.\n${HEADLESS_HINT}`;
  if (platform !== 'linux') return undefined;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return undefined;
  return `no graphical display (neither DISPLAY nor WAYLAND_DISPLAY is set), so there is nowhere to show the tray icon.\n${HEADLESS_HINT}`;
}
