import type { GlobalServerStatus, StatusResponse } from '@blitz/client';
import type { MenuEntry, MenuModel, TrayIconKind } from './menu-model.js';
import { PROBLEM_LINES } from './menu-model.js';
import { serverTitle, wrapText } from './server-title.js';

/** Everything the menu depends on: the last status (or that the daemon is down) and whether the tray starts at login. */
export type TrayView =
  { daemon: 'up'; status: StatusResponse; startAtLogin: boolean } | { daemon: 'down'; starting: boolean; startAtLogin: boolean };

export const NO_SERVERS_TEXT = 'No MCP servers — add one: blitz mcp add …';
export const DAEMON_DOWN_TEXT = 'Blitz daemon not running';

/** A menu item wider than this is cut by some panels: a settings problem is wrapped at it instead. */
const LINE_CHARS = 64;
const ATTENTION_STATES = new Set<GlobalServerStatus['state']>(['failed', 'paused', 'needsSignIn', 'needsMoreAccess']);

/** The menu as a pure function of the view and the time (for "retrying in 30s"). */
export function buildMenu(view: TrayView, now: number): MenuModel {
  const tail: MenuEntry[] = [
    { kind: 'separator', key: 'sep-settings' },
    { kind: 'button', key: 'open-settings', text: 'Open settings', enabled: true, action: { kind: 'openSettings' } },
    {
      kind: 'check',
      key: 'start-at-login',
      text: 'Start at login',
      checked: view.startAtLogin,
      action: { kind: 'toggleStartAtLogin', enable: !view.startAtLogin },
    },
    { kind: 'separator', key: 'sep-quit' },
    { kind: 'button', key: 'quit-tray', text: 'Quit tray', enabled: true, action: { kind: 'quitTray' } },
  ];
  switch (view.daemon) {
    case 'down': {
      const header = view.starting ? 'Blitz daemon starting…' : DAEMON_DOWN_TEXT;
      return {
        icon: 'down',
        tooltip: header,
        items: [
          { kind: 'note', key: 'header', text: header },
          { kind: 'separator', key: 'sep-status' },
          view.starting
            ? { kind: 'button', key: 'start-daemon', text: 'Starting daemon…', enabled: false, action: { kind: 'startDaemon' } }
            : { kind: 'button', key: 'start-daemon', text: 'Start daemon', enabled: true, action: { kind: 'startDaemon' } },
          ...tail,
        ],
      };
    }
    case 'up': {
      const { servers, problems } = view.status;
      const header = headerText(servers);
      const problem = problemText(problems);
      return {
        icon: iconFor(servers, problems),
        tooltip: problem ? `${header}\n${problem}` : header,
        items: [
          { kind: 'note', key: 'header', text: header },
          ...problemLines(problem).map((text, i) => ({ kind: 'note' as const, key: `problem-${i}`, text })),
          { kind: 'separator', key: 'sep-status' },
          { kind: 'submenu', key: 'servers', text: 'MCP servers', items: serverEntries(servers, now) },
          ...tail,
          { kind: 'button', key: 'quit-blitz', text: 'Quit Blitz', enabled: true, action: { kind: 'quitBlitz' } },
        ],
      };
    }
    default: {
      const _exhaustive: never = view;
      return _exhaustive;
    }
  }
}

/** How a state reads in the summary, trouble first: an idle server is no fault (it starts at first use). */
const SUMMARY: readonly { state: GlobalServerStatus['state']; one: string; many: string }[] = [
  { state: 'failed', one: 'failed', many: 'failed' },
  { state: 'paused', one: 'paused', many: 'paused' },
  { state: 'needsSignIn', one: 'needs sign-in', many: 'need sign-in' },
  { state: 'needsMoreAccess', one: 'needs more access', many: 'need more access' },
  { state: 'starting', one: 'starting', many: 'starting' },
  { state: 'connected', one: 'connected', many: 'connected' },
  { state: 'idle', one: 'idle', many: 'idle' },
];

/**
 * The overall state, worded by state: "2 servers connected", "2 servers ready (idle)",
 * "1 failed, 1 connected, 1 idle". Counting only connected ones made all-idle read
 * "0 of 2 servers connected", which looks like a fault.
 */
export function headerText(servers: readonly GlobalServerStatus[]): string {
  if (servers.length === 0) return 'Blitz — no MCP servers';
  const enabled = servers.filter((s) => s.enabled);
  if (enabled.length === 0) return 'Blitz — every server switched off';
  const counts = SUMMARY.map((w) => ({ ...w, n: enabled.filter((s) => s.state === w.state).length })).filter((w) => w.n > 0);
  const only = counts.length === 1 ? counts[0] : undefined;
  if (only) {
    const servers = `${only.n} server${only.n === 1 ? '' : 's'}`;
    if (only.state === 'idle') return `Blitz — ${servers} ready (idle)`;
    return `Blitz — ${servers} ${only.n === 1 ? only.one : only.many}`;
  }
  return `Blitz — ${counts.map((w) => `${w.n} ${w.n === 1 ? w.one : w.many}`).join(', ')}`;
}

/** The last settings edit was not applied: say so whole, or the user wonders why nothing changed. */
function problemText(problems: readonly string[]): string | undefined {
  if (problems.length === 0) return undefined;
  // The folder of settings.toml is long and the user knows it: keep the file name and line.
  const short = problems.map((p) =>
    p
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/(?:[A-Za-z]:)?[\\/][^\s:]*[\\/]([^\\/\s:]+)(?=:)/g, '$1'),
  );
  return `Settings not applied: ${short.join('; ')}`;
}

/**
 * The problem over as many greyed items as it needs (the menu has PROBLEM_LINES of them):
 * one item is cut at the panel's width. Past the last line the rest is in the notification.
 */
function problemLines(problem: string | undefined): string[] {
  if (problem === undefined) return [];
  const lines = wrapText(problem, LINE_CHARS);
  if (lines.length <= PROBLEM_LINES) return lines;
  const kept = lines.slice(0, PROBLEM_LINES);
  kept[PROBLEM_LINES - 1] = `${kept[PROBLEM_LINES - 1]!.slice(0, LINE_CHARS - 1).trimEnd()}…`;
  return kept;
}

function iconFor(servers: readonly GlobalServerStatus[], problems: readonly string[]): TrayIconKind {
  if (problems.length > 0) return 'attention';
  return servers.some((s) => s.enabled && ATTENTION_STATES.has(s.state)) ? 'attention' : 'ok';
}

function serverEntries(servers: readonly GlobalServerStatus[], now: number): MenuEntry[] {
  if (servers.length === 0) return [{ kind: 'note', key: 'no-servers', text: NO_SERVERS_TEXT }];
  return servers.flatMap((s): MenuEntry[] => [
    {
      kind: 'check',
      key: `server:${s.name}`,
      text: serverTitle(s, now),
      checked: s.enabled,
      action: { kind: 'toggleServer', server: s.name, enable: !s.enabled },
    },
    // The page signs in with a button (issue 29.7): one click away from the server that needs it.
    ...(s.enabled && (s.state === 'needsSignIn' || s.state === 'needsMoreAccess')
      ? [
          {
            kind: 'button' as const,
            key: `sign-in:${s.name}`,
            text: `Sign in to ${s.name}…`,
            enabled: true,
            action: { kind: 'openSettings' as const, server: s.name },
          },
        ]
      : []),
  ]);
}

/** Whether two menus show the same thing: the redraw test. */
export function sameMenu(a: MenuModel | undefined, b: MenuModel): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
