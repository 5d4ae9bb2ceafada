import type {
  ConfigChange,
  ContextReceipt,
  DaemonEnvironment,
  DaemonState,
  ErrorBody,
  McpServerConfig,
  McpServerConfigList,
  OAuthChange,
  ReviewAccepted,
  ServerProblems,
  ServerReview,
  ServerTestResult,
  SettingsCode,
  StatusResponse,
  WorkspaceServer,
  WorkspaceSummary,
} from './api-types.js';
import { ApiError } from './api-error.js';
import { formatDelay } from '@blitz/clock';

/**
 * The daemon gave no answer: it did not answer in time (`TIMEOUT`), or nothing answers on its
 * port (`UNREACHABLE`). The message says which, where, and what to do.
 */
export class DaemonUnreachable extends Error {
  readonly code: 'TIMEOUT' | 'UNREACHABLE';

  constructor(code: 'TIMEOUT' | 'UNREACHABLE', message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'DaemonUnreachable';
    this.code = code;
  }
}

export interface ClientOptions {
  fetch?: typeof fetch;
  /** Per request; the daemon is local, so a slow answer means trouble. */
  timeoutMs?: number;
}

/** The typed control-API client the CLI and tray use. */
export class BlitzClient {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  /** The last status answered with a tag, and what was asked for it. */
  #lastStatus: { path: string; etag: string; text: string } | undefined;

  constructor(state: Pick<DaemonState, 'port' | 'token'>, opts: ClientOptions = {}) {
    this.baseUrl = `http://127.0.0.1:${state.port}`;
    this.#token = state.token;
    this.#fetch = opts.fetch ?? fetch;
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /**
   * The status, asked for again with the tag of the last one for the same cursor
   * (`If-None-Match`): while nothing changed, the daemon answers 304 with no body and this
   * answers what it said last, parsed afresh — the tray's poll every 2 s reads ~100 bytes
   * instead of the whole status.
   */
  async status(after?: number): Promise<StatusResponse> {
    const path = `/v1/status${after === undefined ? '' : `?after=${after}`}`;
    const kept = this.#lastStatus?.path === path ? this.#lastStatus : undefined;
    const { response, text } = await this.#send('GET', path, undefined, kept ? { 'if-none-match': kept.etag } : {});
    if (response.status === 304 && kept) return JSON.parse(kept.text) as StatusResponse;
    const etag = response.headers.get('etag');
    this.#lastStatus = response.ok && etag ? { path, etag, text } : undefined;
    return this.#answer(response, text);
  }

  listServerConfigs(): Promise<McpServerConfigList> {
    return this.#request('GET', '/v1/config/mcp-servers');
  }

  getServerConfig(name: string): Promise<McpServerConfig> {
    return this.#request('GET', `/v1/config/mcp-servers/${encodeURIComponent(name)}`);
  }

  /** Adds the server, or replaces the one named `name` (renaming it when `server.name` differs). */
  saveServer(server: McpServerConfig, name?: string): Promise<ConfigChange> {
    return name === undefined
      ? this.#request('PUT', '/v1/config/mcp-servers', server)
      : this.#request('PUT', `/v1/config/mcp-servers/${encodeURIComponent(name)}`, server);
  }

  removeServer(name: string): Promise<ConfigChange> {
    return this.#request('DELETE', `/v1/config/mcp-servers/${encodeURIComponent(name)}`);
  }

  setServerEnabled(name: string, enabled: boolean): Promise<ConfigChange> {
    return this.#request('POST', `/v1/config/mcp-servers/${encodeURIComponent(name)}/enabled`, { enabled });
  }

  listWorkspaces(): Promise<WorkspaceSummary[]> {
    return this.#request('GET', '/v1/workspaces');
  }

  /** Opens (or finds) the workspace for a directory. */
  openWorkspace(root: string): Promise<WorkspaceSummary> {
    return this.#request('POST', '/v1/workspaces', { root });
  }

  /** A workspace's servers; `connect` starts them all first (lists their tools). */
  listWorkspaceServers(id: string, opts: { connect?: boolean } = {}): Promise<WorkspaceServer[]> {
    return this.#request('GET', `/v1/workspaces/${encodeURIComponent(id)}/mcp-servers${opts.connect ? '?connect=true' : ''}`);
  }

  /** What each client's tool list costs in a workspace (`blitz context`); only `client`'s when named. */
  context(id: string, opts: { client?: string; agent?: string } = {}): Promise<ContextReceipt> {
    const query = new URLSearchParams(Object.entries(opts).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    return this.#request('GET', `/v1/workspaces/${encodeURIComponent(id)}/context${query === '' ? '' : `?${query}`}`);
  }

  restartServer(id: string, name: string): Promise<WorkspaceServer> {
    return this.#request('POST', `/v1/workspaces/${encodeURIComponent(id)}/mcp-servers/${encodeURIComponent(name)}/restart`);
  }

  /** A server's tools held for review in a workspace, each with what changed field by field (issue 31). */
  serverReview(id: string, name: string): Promise<ServerReview> {
    return this.#request('GET', `/v1/workspaces/${encodeURIComponent(id)}/mcp-servers/${encodeURIComponent(name)}/review`);
  }

  /** Pins the definitions of a server's tools in review (only these, when named). */
  acceptReview(id: string, name: string, tools?: readonly string[]): Promise<ReviewAccepted> {
    return this.#request(
      'POST',
      `/v1/workspaces/${encodeURIComponent(id)}/mcp-servers/${encodeURIComponent(name)}/review/accept`,
      tools === undefined ? {} : { tools: [...tools] },
    );
  }

  /** Tells the daemon a server's sign-in changed (login, logout): it drops the old tokens at once. */
  oauthChanged(name: string): Promise<OAuthChange> {
    return this.#request('POST', `/v1/oauth/${encodeURIComponent(name)}/changed`);
  }

  /** A one-time address of the settings page (valid once, for a minute): what `blitz settings` and the tray open. */
  settingsCode(): Promise<SettingsCode> {
    return this.#request('POST', '/v1/settings/code');
  }

  /** Every problem saving `server` would meet (`name`: the server it replaces), without saving. */
  validateServer(server: McpServerConfig, name?: string): Promise<ServerProblems> {
    return this.#request('POST', '/v1/config/mcp-servers/validate', { server, ...(name === undefined ? {} : { name }) });
  }

  /** Connects to a configured server on its own and lists its tools. */
  testServer(name: string): Promise<ServerTestResult> {
    return this.#request('POST', `/v1/config/mcp-servers/${encodeURIComponent(name)}/test`);
  }

  /** Where the daemon looks for the commands of stdio servers. */
  environment(): Promise<DaemonEnvironment> {
    return this.#request('GET', '/v1/environment');
  }

  /** Asks the daemon to stop; it answers before it goes. */
  shutdown(): Promise<{ stopping: true }> {
    return this.#request('POST', '/v1/shutdown');
  }

  async #request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { response, text } = await this.#send(method, path, body);
    return this.#answer(response, text);
  }

  /** One request and its answer's text; no answer at all is `DaemonUnreachable`. */
  async #send(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ response: Response; text: string }> {
    try {
      const response = await this.#fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      return { response, text: await response.text() };
    } catch (err) {
      throw this.#unreachable(method, path, err);
    }
  }

  /** An answer's JSON, or its error as an `ApiError`. */
  #answer<T>(response: Response, text: string): T {
    const data: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) {
      const err = (data ?? {}) as Partial<ErrorBody>;
      throw new ApiError(response.status, {
        code: err.code ?? 'UNKNOWN',
        message: err.message ?? `HTTP ${response.status}`,
        ...(err.reason ? { reason: err.reason } : {}),
        ...(err.problems ? { problems: err.problems } : {}),
      });
    }
    return data as T;
  }

  #unreachable(method: string, path: string, err: unknown): DaemonUnreachable {
    if (err instanceof Error && err.name === 'TimeoutError') {
      return new DaemonUnreachable(
        'TIMEOUT',
        `the Blitz daemon at ${this.baseUrl} did not answer ${method} ${path.split('?')[0]} within ${formatDelay(this.#timeoutMs)}; it may be busy or stuck: see its log, or restart it (blitz daemon stop, then blitz daemon start)`,
        err,
      );
    }
    // undici says only "fetch failed"; the reason (ECONNREFUSED, …) is in the cause.
    const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
    const reason = typeof cause?.code === 'string' ? cause.code : err instanceof Error ? err.message : String(err);
    return new DaemonUnreachable(
      'UNREACHABLE',
      `cannot reach the Blitz daemon at ${this.baseUrl} (${reason}); start it with blitz daemon start`,
      err,
    );
  }
}
