import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { McpServerConfigList, StatusResponse, WorkspaceServer, WorkspaceSummary } from '@blitz/client/api-types';
import { ApiError } from '@blitz/client/api-error';
import type { PageApi } from './page-api.js';

/** The tray's rhythm (MCP-41): the page follows the daemon without a reload. */
export const POLL_MS = 2_000;

export interface OpenWorkspace extends WorkspaceSummary {
  serverStates: WorkspaceServer[];
}

/** What the page shows, as last read from the daemon. */
export interface Snapshot {
  status?: StatusResponse;
  config?: McpServerConfigList;
  /** settings.toml could not be read as servers (it has errors): nothing is offered that writes. */
  configError?: ApiError;
  workspaces: OpenWorkspace[];
  /** The daemon does not answer, or this browser's session ended: the rest is what it last said. */
  down?: ApiError;
  /** When it was read (ms), for "retrying in …". */
  at: number;
}

/** Reads the daemon every 2 s (and at once after a change); a read in flight is joined, not doubled. */
export function useSnapshot(api: PageApi): [Snapshot, () => Promise<void>] {
  const [snapshot, setSnapshot] = useState<Snapshot>({ workspaces: [], at: Date.now() });
  const inFlight = useRef<Promise<void> | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const refresh = useCallback((): Promise<void> => {
    inFlight.current ??= (async () => {
      clearTimeout(timer.current);
      try {
        const next = await read(api);
        // Down, the page keeps what the daemon last said (greyed, nothing offered that writes).
        setSnapshot((last) => ('down' in next ? { ...last, down: next.down } : next));
      } finally {
        inFlight.current = undefined;
        // The browser's timer, no Clock: the page is tested in a real browser (docs/architecture.md "Time").
        timer.current = setTimeout(() => void refresh(), POLL_MS);
      }
    })();
    return inFlight.current;
  }, [api]);

  useEffect(() => {
    void refresh();
    return () => clearTimeout(timer.current);
  }, [refresh]);
  return [snapshot, refresh];
}

async function read(api: PageApi): Promise<Snapshot | { down: ApiError }> {
  try {
    const [status, config, workspaces] = await Promise.all([api.status(), api.servers().catch((err: unknown) => err), api.workspaces()]);
    const open = await Promise.all(workspaces.map(async (w) => ({ ...w, serverStates: await api.workspaceServers(w.id).catch(() => []) })));
    if (config instanceof ApiError && config.code === 'FAILED_PRECONDITION')
      return { status, configError: config, workspaces: open, at: Date.now() };
    if (config instanceof Error) throw config;
    return { status, config: config as McpServerConfigList, workspaces: open, at: Date.now() };
  } catch (err) {
    return { down: err instanceof ApiError ? err : new ApiError(0, { code: 'INTERNAL', message: String(err) }) };
  }
}
