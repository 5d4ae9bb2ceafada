import { fileURLToPath } from 'node:url';

export { runTray, type RunTrayOptions } from './run-tray.js';
export { displayProblem, HEADLESS_HINT } from './display.js';
export { TrayApp, POLL_MS, type DaemonApi, type DaemonLink, type TrayAppDeps, type TraySurface } from './tray-app.js';
export { buildMenu, type TrayView } from './menu/build-menu.js';
export { menuText } from './menu/menu-text.js';
export type { MenuAction, MenuEntry, MenuModel } from './menu/menu-model.js';
export { trayStatePath } from './tray-state.js';

/** The tray's standalone entry point (see main.ts); `blitz tray` calls `runTray` instead. */
export const TRAY_ENTRY = fileURLToPath(new URL('./main.js', import.meta.url));
