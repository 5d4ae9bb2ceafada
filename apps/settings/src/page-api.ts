import type {
  ClientConnected,
  ClientImported,
  ClientsReport,
  ConfigChange,
  ContextReceipt,
  ErrorBody,
  ExposedTool,
  McpServerConfig,
  McpServerConfigList,
  ReviewAccepted,
  ServerProblems,
  ServerTestResult,
  LatestCalls,
  ServerLogs,
  SettingsSession,
  SignedOut,
  SignInStarted,
  SignInStatus,
  StatusResponse,
  WorkspaceServer,
  WorkspaceServerDetail,
  WorkspaceSummary,
} from '@blitz/client/api-types';
import { ApiError } from '@blitz/client/api-error';

/**
 * The control API as the page uses it: authenticated by the session cookie the browser
 * sends by itself, and every change carrying the session's CSRF token in its header.
 */
export class PageApi {
  readonly #session: SettingsSession;

  private constructor(session: SettingsSession) {
    this.#session = session;
  }

  static async open(): Promise<PageApi> {
    return new PageApi(await request<SettingsSession>('GET', '/v1/settings/session'));
  }

  get settingsFile(): string {
    return this.#session.file;
  }

  /** The env of a client's `blitz connect` entry (an older daemon says nothing: none). */
  get connectEnv(): Record<string, string> {
    return this.#session.connectEnv ?? {};
  }

  /** How a client's entry starts Blitz (an older daemon says nothing: `blitz connect`, assumed on PATH). */
  get launch(): { command: string; args: string[]; onPath: boolean } {
    return this.#session.launch ?? { command: 'blitz', args: ['connect'], onPath: true };
  }

  /** Other MCP clients' files here, and what import and connect would change in them. */
  clients(): Promise<ClientsReport> {
    return this.#get('/v1/clients');
  }

  importFrom(client: string): Promise<ClientImported> {
    return this.#change('POST', `/v1/clients/${encodeURIComponent(client)}/import`, {});
  }

  connectClient(client: string): Promise<ClientConnected> {
    return this.#change('POST', `/v1/clients/${encodeURIComponent(client)}/connect`, {});
  }

  status(): Promise<StatusResponse> {
    return this.#get('/v1/status');
  }

  servers(): Promise<McpServerConfigList> {
    return this.#get('/v1/config/mcp-servers');
  }

  server(name: string): Promise<McpServerConfig> {
    return this.#get(`/v1/config/mcp-servers/${encodeURIComponent(name)}`);
  }

  workspaces(): Promise<WorkspaceSummary[]> {
    return this.#get('/v1/workspaces');
  }

  /** What each client's tool list costs in the workspace (`blitz context`). */
  context(id: string): Promise<ContextReceipt> {
    return this.#get(`/v1/workspaces/${encodeURIComponent(id)}/context`);
  }

  workspaceServers(id: string): Promise<WorkspaceServer[]> {
    return this.#get(`/v1/workspaces/${encodeURIComponent(id)}/mcp-servers`);
  }

  workspaceServer(id: string, name: string): Promise<WorkspaceServerDetail> {
    return this.#get(`/v1/workspaces/${encodeURIComponent(id)}/mcp-servers/${encodeURIComponent(name)}`);
  }

  validate(server: McpServerConfig, name?: string): Promise<ServerProblems> {
    return this.#change('POST', '/v1/config/mcp-servers/validate', { server, ...(name === undefined ? {} : { name }) });
  }

  /** Adds the server, or replaces the one named `name` (renaming it when the names differ). */
  save(server: McpServerConfig, name?: string): Promise<ConfigChange> {
    return this.#change(
      'PUT',
      name === undefined ? '/v1/config/mcp-servers' : `/v1/config/mcp-servers/${encodeURIComponent(name)}`,
      server,
    );
  }

  remove(name: string): Promise<ConfigChange> {
    return this.#change('DELETE', `/v1/config/mcp-servers/${encodeURIComponent(name)}`);
  }

  setEnabled(name: string, enabled: boolean): Promise<ConfigChange> {
    return this.#change('POST', `/v1/config/mcp-servers/${encodeURIComponent(name)}/enabled`, { enabled });
  }

  /** Offers one tool to clients or not, through the server's `tools` allow-list. */
  setToolOffered(name: string, tool: string, enabled: boolean): Promise<ConfigChange> {
    return this.#change('POST', `/v1/config/mcp-servers/${encodeURIComponent(name)}/tools/${encodeURIComponent(tool)}/enabled`, {
      enabled,
    });
  }

  /** One tool's approval, as its own rule in `[permissions]`. */
  setToolApproval(name: string, tool: string, approval: ExposedTool['approval']): Promise<ConfigChange> {
    return this.#change('POST', `/v1/config/mcp-servers/${encodeURIComponent(name)}/tools/${encodeURIComponent(tool)}/approval`, {
      approval,
    });
  }

  test(name: string): Promise<ServerTestResult> {
    return this.#change('POST', `/v1/config/mcp-servers/${encodeURIComponent(name)}/test`);
  }

  restart(workspace: string, name: string): Promise<WorkspaceServer> {
    return this.#change('POST', `/v1/workspaces/${encodeURIComponent(workspace)}/mcp-servers/${encodeURIComponent(name)}/restart`);
  }

  /** Pins the definitions of a server's tools held for review (issue 31): they are offered again. */
  acceptReview(workspace: string, name: string): Promise<ReviewAccepted> {
    return this.#change(
      'POST',
      `/v1/workspaces/${encodeURIComponent(workspace)}/mcp-servers/${encodeURIComponent(name)}/review/accept`,
      {},
    );
  }

  /** A server's log lines after `after` (all it keeps with 0). */
  serverLogs(name: string, after: number): Promise<ServerLogs> {
    return this.#get(`/v1/logs/${encodeURIComponent(name)}?after=${after}`);
  }

  /** A server's latest calls from the audit log, newest first. */
  latestCalls(name: string): Promise<LatestCalls> {
    return this.#get(`/v1/audit/calls?server=${encodeURIComponent(name)}`);
  }

  signInStatus(name: string): Promise<SignInStatus> {
    return this.#get(`/v1/oauth/${encodeURIComponent(name)}`);
  }

  /** Starts `blitz mcp login NAME` in the daemon: the answer is the address to open in the browser. */
  signIn(name: string): Promise<SignInStarted> {
    return this.#change('POST', `/v1/oauth/${encodeURIComponent(name)}/sign-in`, {});
  }

  signOut(name: string): Promise<SignedOut> {
    return this.#change('POST', `/v1/oauth/${encodeURIComponent(name)}/sign-out`, {});
  }

  #get<T>(path: string): Promise<T> {
    return request('GET', path);
  }

  #change<T>(method: string, path: string, body?: unknown): Promise<T> {
    return request(method, path, body, { [this.#session.header]: this.#session.csrfToken });
  }
}

async function request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, { code: 'UNAVAILABLE', message: 'the Blitz daemon does not answer; is it running? (blitz daemon start)' });
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(response.status, {
      code: 'INTERNAL',
      message: `the daemon answered ${response.status} with something that is not JSON`,
    });
  }
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
