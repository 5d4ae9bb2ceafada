import { useEffect, useRef, useState } from 'preact/hooks';
import type { Ref } from 'preact';
import type { GlobalServerStatus, McpServerConfig } from '@blitz/client/api-types';
import { ConfirmDialog, type ConfirmRequest } from './confirm-dialog.js';
import type { PageApi } from './page-api.js';
import { hrefOf } from './route.js';
import { stateText, targetText } from './state-text.js';
import type { Snapshot } from './use-snapshot.js';
import { problemText } from './problem-text.js';
import { matchServer, type StateFilter } from './server-filter.js';

const ATTENTION = new Set(['failed', 'paused', 'needsSignIn', 'needsMoreAccess']);

interface Props {
  api: PageApi;
  snapshot: Snapshot;
  readOnly: boolean;
  refresh(): Promise<void>;
  headingRef: Ref<HTMLHeadingElement>;
}

/** The tool count of a global server: from the workspace where it last listed its tools. */
export function toolCount(snapshot: Snapshot, name: string): number | undefined {
  const counts = snapshot.workspaces.flatMap((w) =>
    w.serverStates.filter((s) => s.name === name && s.source === 'global' && s.state === 'connected').map((s) => s.tools.length),
  );
  return counts.length === 0 ? undefined : Math.max(...counts);
}

export function ServerList({ api, snapshot, readOnly, refresh, headingRef }: Props) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [confirm, setConfirm] = useState<ConfirmRequest | undefined>(undefined);
  const statusByName = new Map((snapshot.status?.servers ?? []).map((s) => [s.name, s]));
  // With settings.toml in error the file gives no servers: the ones in force (the daemon's) are shown.
  const servers: McpServerConfig[] =
    snapshot.config?.servers ??
    (snapshot.status?.servers ?? []).map((s) => ({
      name: s.name,
      ...(s.enabled ? {} : { disabled: true }),
      ...(s.transport === 'http' ? { url: '' } : {}),
    }));
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<StateFilter>('all');
  // Search and filter (issue 29.9): by name, command or URL, state, and the names of its tools.
  const toolsOf = (name: string) => [
    ...new Set(
      snapshot.workspaces.flatMap((w) => w.serverStates.filter((s) => s.name === name && s.source === 'global').flatMap((s) => s.tools)),
    ),
  ];
  const shown = servers.flatMap((config) => {
    const status = statusByName.get(config.name);
    const found = matchServer(
      {
        name: config.name,
        target: targetText(config),
        state: status ? stateText(status, snapshot.at) : '',
        enabled: config.disabled !== true && config.enabled !== false,
        attention: (status !== undefined && ATTENTION.has(status.state)) || (status?.review?.length ?? 0) > 0,
        tools: toolsOf(config.name),
      },
      query,
      filter,
    );
    return found.match ? [{ config, status, matchedTools: found.tools }] : [];
  });
  const filtering = query.trim() !== '' || filter !== 'all';
  const projectServers = (w: (typeof snapshot.workspaces)[number]) =>
    w.serverStates
      .filter((s) => s.source !== 'global')
      .filter(
        (s) =>
          matchServer(
            {
              name: s.name,
              target: String(s.source),
              state: stateText(s, snapshot.at),
              enabled: true,
              attention: ATTENTION.has(s.state),
              tools: s.tools,
            },
            query,
            filter,
          ).match,
      );
  const projects = snapshot.workspaces.filter((w) => projectServers(w).length > 0);
  const removeButton = useRef<HTMLButtonElement | null>(null);
  /** Where the removed server stood: the focus goes to the one now there (or the last, or the heading). */
  const focusAfter = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (focusAfter.current === undefined) return;
    const names = document.querySelectorAll<HTMLAnchorElement>('ul.servers a.server-name');
    const next = names[Math.min(focusAfter.current, names.length - 1)];
    focusAfter.current = undefined;
    if (next) next.focus();
    else (headingRef as { current: HTMLHeadingElement | null }).current?.focus();
  }, [servers.length]);

  const act = async (what: () => Promise<unknown>): Promise<boolean> => {
    setError(undefined);
    let ok = true;
    try {
      await what();
    } catch (err) {
      setError((err as Error).message);
      ok = false;
    }
    await refresh();
    return ok;
  };

  return (
    <section aria-labelledby="servers-heading">
      <div class="section-head">
        <h2 id="servers-heading" tabIndex={-1} ref={headingRef}>
          MCP servers
        </h2>
        {!readOnly && (
          <a class="button primary" href={hrefOf({ view: 'add' })}>
            Add server
          </a>
        )}
      </div>
      {error && (
        <p class="banner error" role="alert">
          {error}
        </p>
      )}
      {snapshot.config && servers.length === 0 && <p class="empty">No MCP servers yet. Add one, or run blitz mcp add in a terminal.</p>}
      {servers.length > 0 && (
        <div class="controls" role="search" aria-label="Servers and tools">
          <label class="control">
            <span>Search servers and tools</span>
            <input type="search" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
          </label>
          <label class="control">
            <span>Show</span>
            <select value={filter} onChange={(e) => setFilter((e.target as HTMLSelectElement).value as StateFilter)}>
              <option value="all">every server</option>
              <option value="attention">needing attention</option>
              <option value="on">switched on</option>
              <option value="off">switched off</option>
            </select>
          </label>
          <p class="hint" aria-live="polite" data-testid="shown-count">
            {filtering ? `${shown.length} of ${plural(servers.length, 'server')} shown` : ''}
          </p>
        </div>
      )}
      {filtering && shown.length === 0 && <p class="empty">No server matches.</p>}
      <ul class="servers" aria-label="Global MCP servers, in settings order">
        {shown.map(({ config, status, matchedTools }) => (
          <ServerRow
            key={config.name}
            config={config}
            status={status}
            matchedTools={matchedTools}
            tools={toolCount(snapshot, config.name)}
            now={snapshot.at}
            readOnly={readOnly}
            onToggle={(enabled) => act(() => api.setEnabled(config.name, enabled))}
            onRemove={(button) => {
              // Kept for when the dialog closes: the focus goes back where it was.
              removeButton.current = button;
              setConfirm({
                title: `Remove ${config.name}?`,
                message: `The server "${config.name}" is taken out of settings.toml. A sign-in it has is kept (blitz mcp logout ${config.name} forgets it).`,
                confirm: 'Remove',
                onConfirm: async () => {
                  // Set before the list changes: the new list may be drawn before act() returns.
                  focusAfter.current = shown.findIndex((s) => s.config === config);
                  if (!(await act(() => api.remove(config.name)))) focusAfter.current = undefined;
                },
              });
            }}
          />
        ))}
      </ul>
      {projects.map((w) => (
        <section key={w.id} class="project" aria-label={`Project ${w.root}`}>
          <h3>
            Project <code>{w.root}</code> <span class="badge">read-only</span>
          </h3>
          <p class="hint">Defined in the project's own file; edit it there. Shown while a client has the project open.</p>
          <ul class="servers">
            {projectServers(w).map((s) => (
              <li key={s.name} class="server">
                <div class="server-main">
                  <span class="server-name">{s.name}</span>
                  <span class={`state state-${s.state}`}>{stateText(s, snapshot.at)}</span>
                  {s.state === 'connected' && <span class="tools">{plural(s.tools.length, 'tool')}</span>}
                </div>
                <p class="where">
                  from <code>{s.source}</code>
                </p>
                {problemText(s) && <p class="server-error">{problemText(s)}</p>}
                {s.tools.length > 0 && (
                  <p class="tools-list">
                    Tools: <code>{s.tools.join(', ')}</code>
                  </p>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
      {confirm && (
        <ConfirmDialog
          request={confirm}
          onClose={() => {
            setConfirm(undefined);
            // Back where it was (Cancel); after a removal the effect above moves it on.
            removeButton.current?.focus();
          }}
        />
      )}
    </section>
  );
}

interface RowProps {
  config: McpServerConfig;
  status: GlobalServerStatus | undefined;
  tools: number | undefined;
  /** Its tools that matched the search. */
  matchedTools: string[];
  now: number;
  readOnly: boolean;
  /** Resolves false when the change was refused. */
  onToggle(enabled: boolean): Promise<boolean>;
  onRemove(button: HTMLButtonElement): void;
}

function ServerRow({ config, status, tools, matchedTools, now, readOnly, onToggle, onRemove }: RowProps) {
  const enabled = config.disabled !== true && config.enabled !== false;
  // The switch shows what was asked for until the daemon's answer shows it too (or it failed).
  const [wanted, setWanted] = useState<boolean | undefined>(undefined);
  useEffect(() => setWanted(undefined), [enabled]);
  const transport = typeof config.url === 'string' ? 'HTTP' : 'stdio';
  const id = `server-${config.name}`;
  return (
    <li class="server" aria-labelledby={`${id}-name`}>
      <div class="server-main">
        <label class="switch">
          <input
            type="checkbox"
            role="switch"
            checked={wanted ?? enabled}
            disabled={readOnly}
            aria-describedby={`${id}-state`}
            onChange={(e) => {
              const next = e.currentTarget.checked;
              setWanted(next);
              void onToggle(next).then((ok) => ok || setWanted(undefined));
            }}
          />
          <span class="visually-hidden">{config.name} on</span>
          <span class="track" aria-hidden="true" />
        </label>
        <a class="server-name" id={`${id}-name`} href={hrefOf({ view: 'server', name: config.name })}>
          {config.name}
        </a>
        <span class="badge">{transport}</span>
        <span class={`state state-${status?.state ?? 'unknown'}`} id={`${id}-state`} data-state={status?.state}>
          {status ? stateText(status, now) : '…'}
        </span>
        {tools !== undefined && <span class="tools">{plural(tools, 'tool')}</span>}
      </div>
      {targetText(config) !== '' && (
        <p class="target">
          <code>{targetText(config)}</code>
        </p>
      )}
      {matchedTools.length > 0 && (
        <p class="tools-list" data-testid="matched-tools">
          Matching tools: <code>{matchedTools.join(', ')}</code>
        </p>
      )}
      {status && problemText(status) && <p class="server-error">{problemText(status)}</p>}
      {status?.warnings && <Warnings warnings={status.warnings} />}
      <div class="actions">
        {!readOnly && (
          <>
            <a class="button" href={hrefOf({ view: 'edit', name: config.name })} aria-label={`Edit ${config.name}`}>
              Edit
            </a>
            <button type="button" class="danger" aria-label={`Remove ${config.name}`} onClick={(e) => onRemove(e.currentTarget)}>
              Remove
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/** A server's warnings where its state is shown: the first two, the rest one click away. */
export function Warnings({ warnings }: { warnings: string[] }) {
  const [first, second, ...rest] = warnings;
  return (
    <div class="warnings" data-testid="warnings">
      <p>
        <strong>{plural(warnings.length, 'warning')}:</strong> {first}
      </p>
      {second !== undefined && <p>{second}</p>}
      {rest.length > 0 && (
        <details>
          <summary>{rest.length} more</summary>
          <ul>
            {rest.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
