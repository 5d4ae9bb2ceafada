/**
 * What the tray menu shows, as plain data: the pure `buildMenu` makes it from the last
 * status, the surface draws it, and comparing two of them decides whether to redraw.
 */

/** What a click asks for; the tray app carries it out. */
export type MenuAction =
  | { kind: 'toggleServer'; server: string; enable: boolean }
  /** With a server: the page opens at that server (its Sign in, issue 29.7). */
  | { kind: 'openSettings'; server?: string }
  | { kind: 'toggleStartAtLogin'; enable: boolean }
  | { kind: 'startDaemon' }
  | { kind: 'quitTray' }
  | { kind: 'quitBlitz' };

export type MenuEntry =
  | { kind: 'separator'; key: string }
  /** Greyed text that does nothing when clicked. */
  | { kind: 'note'; key: string; text: string }
  | { kind: 'button'; key: string; text: string; enabled: boolean; action: MenuAction }
  | { kind: 'check'; key: string; text: string; checked: boolean; action: MenuAction }
  | { kind: 'submenu'; key: string; text: string; items: MenuEntry[] };

/** The icon says the overall state at a glance. */
export type TrayIconKind = 'ok' | 'attention' | 'down';

export interface MenuModel {
  icon: TrayIconKind;
  tooltip: string;
  items: MenuEntry[];
}

/**
 * The top-level entries in their fixed order. A surface that cannot add or remove items
 * (systray2) allocates one slot per key and hides the keys a model leaves out; the
 * separators are always present because systray2 cannot hide them.
 */
export const TOP_LEVEL_KEYS = [
  'header',
  'problem-0',
  'problem-1',
  'problem-2',
  'problem-3',
  'problem-4',
  'problem-5',
  'sep-status',
  'servers',
  'start-daemon',
  'sep-settings',
  'open-settings',
  'start-at-login',
  'sep-quit',
  'quit-tray',
  'quit-blitz',
] as const;

export type TopLevelKey = (typeof TOP_LEVEL_KEYS)[number];

/** Greyed items a settings problem may wrap over (`problem-0` … `problem-5`). */
export const PROBLEM_LINES = 6;

/** The key of the submenu that lists the servers. */
export const SERVERS_KEY: TopLevelKey = 'servers';
