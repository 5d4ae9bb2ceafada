import type { GlobalServerStatus, StatusResponse } from '@blitz/client';
import type { MenuEntry, MenuModel, TrayIconKind } from './menu-model.js';
import { serverTitle, truncate } from './server-title.js';

/** Everything the menu depends on: the last status (or that the daemon is down) and whether the tray starts at login. */
export type TrayView =
  | { daemon: 'up'; status: StatusResponse; startAtLogin: boolean }
  | { daemon: 'down'; starting: boolean; startAtLogin: boolean };

export const NO_SERVERS_TEXT = 'No MCP servers — add one: blitz mcp add …';
export const DAEMON_DOWN_TEXT = 'Blitz daemon not running';

const PROBLEM_CHARS = 80;
const ATTENTION_STATES = new Set<GlobalServerStatus['state']>(['failed', 'paused', 'needsSignIn']);

/** The menu as a pure function of the view and the time (for "retrying in 30s"). */
export function buildMenu(view: TrayView, now: number): MenuModel {
  const tail: MenuEntry[] = [
    { kind: 'separator', key: 'sep-settings' },
    { kind: 'button', key: 'open-settings', text: 'Open settings', enabled: true, action: { kind: 'openSettings' } },
    { kind: 'check', key: 'start-at-login', text: 'Start at login', checked: view.startAtLogin, action: { kind: 'toggleStartAtLogin', enable: !view.startAtLogin } },
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
          ...(problem ? [{ kind: 'note' as const, key: 'problem', text: problem }] : []),
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

function headerText(servers: readonly GlobalServerStatus[]): string {
  if (servers.length === 0) return 'Blitz — no MCP servers';
  const enabled = servers.filter((s) => s.enabled);
  if (enabled.length === 0) return 'Blitz — every server switched off';
  const connected = enabled.filter((s) => s.state === 'connected').length;
  return `Blitz — ${connected} of ${enabled.length} server${enabled.length === 1 ? '' : 's'} connected`;
}

/** The last settings edit was not applied: say so, or the user wonders why nothing changed. */
function problemText(problems: readonly string[]): string | undefined {
  const [first] = problems;
  if (first === undefined) return undefined;
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
  // The folder of settings.toml is long and the user knows it: keep the file name and line.
  const short = first.replace(/\s+/g, ' ').replace(/(?:[A-Za-z]:)?[\\/][^\s:]*[\\/]([^\\/\s:]+)(?=:)/g, '$1');
  return `Settings not applied: ${truncate(short, PROBLEM_CHARS)}${more}`;
}

function iconFor(servers: readonly GlobalServerStatus[], problems: readonly string[]): TrayIconKind {
  if (problems.length > 0) return 'attention';
  return servers.some((s) => s.enabled && ATTENTION_STATES.has(s.state)) ? 'attention' : 'ok';
}

function serverEntries(servers: readonly GlobalServerStatus[], now: number): MenuEntry[] {
  if (servers.length === 0) return [{ kind: 'note', key: 'no-servers', text: NO_SERVERS_TEXT }];
  return servers.map((s) => ({
    kind: 'check',
    key: `server:${s.name}`,
    text: serverTitle(s, now),
    checked: s.enabled,
    action: { kind: 'toggleServer', server: s.name, enable: !s.enabled },
  }));
}

/** Whether two menus show the same thing: the redraw test. */
export function sameMenu(a: MenuModel | undefined, b: MenuModel): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
