import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { decide, isBlitzError, permissionKey, type Settings } from '@blitz/core';
import type { Workspace } from '../workspaces/workspace.js';
import { Approver } from './approver.js';
import { SHARED_CALLERS, type Callers } from './callers.js';
import { RpcError } from './rpc-error.js';
import { formatBytes, formatResourceList, formatResourceRead, LIST_RESOURCES, READ_RESOURCE, RESOURCE_TOOLS } from './resource-tools.js';

export interface SessionOptions {
  workspace: Workspace;
  agent: string;
  readOnly: boolean;
  version: string;
  /** The settings in force now: permissions and limits follow live edits. */
  settings(): Settings;
  callers: Callers;
}

/**
 * What one connected client sees (DESIGN.md "Data flow of a tool call"): the workspace's
 * catalog for its agent and mode, the resource tools, passed-through resources and prompts,
 * calls routed with approval, and notices as logging messages.
 */
export class HubSession {
  readonly server: Server;
  readonly #opts: SessionOptions;
  readonly #approver: Approver;
  /** What the client last saw of the tools, to tell it only about real changes. */
  #shown: string | undefined;

  constructor(opts: SessionOptions) {
    this.#opts = opts;
    this.server = new Server(
      { name: 'blitz', version: opts.version },
      {
        capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {} },
        instructions: `Blitz: the MCP servers of ${opts.workspace.root}, for agent ${opts.agent}${opts.readOnly ? ', read-only' : ''}.`,
      },
    );
    this.#approver = new Approver(this.server);
    this.#shown = this.#signature();
    this.#register();
  }

  get workspace(): Workspace {
    return this.#opts.workspace;
  }

  /**
   * The catalog may have changed (a toggle, a settings edit, the breaker, a server's tools):
   * tools when what this client sees did, prompts and resources always, as they are not
   * tracked here (MCP-45).
   */
  async catalogChanged(): Promise<void> {
    const now = this.#signature();
    const sends = [this.server.sendPromptListChanged(), this.server.sendResourceListChanged()];
    if (now !== this.#shown) {
      this.#shown = now;
      sends.push(this.server.sendToolListChanged());
    }
    await Promise.all(sends).catch(() => undefined);
  }

  /** A server changed its prompts or resources. */
  async listChanged(list: 'prompts' | 'resources'): Promise<void> {
    await (list === 'prompts' ? this.server.sendPromptListChanged() : this.server.sendResourceListChanged()).catch(() => undefined);
  }

  /** A notice (MCP-33) as an MCP logging message. */
  async notice(message: string): Promise<void> {
    await this.server.sendLoggingMessage({ level: 'warning', logger: 'blitz', data: message }).catch(() => undefined);
  }

  #signature(): string {
    if (this.#opts.readOnly) return '';
    return this.#opts.workspace.manager
      .catalog(this.#opts.agent)
      .list()
      .map((e) => `${e.exposedName}\0${e.server}\0${JSON.stringify(e.tool)}`)
      .join('\n');
  }

  #register(): void {
    const { workspace, agent, readOnly } = this.#opts;
    const manager = workspace.manager;

    this.server.setRequestHandler(ListToolsRequestSchema, async () => {
      const serverTools: Tool[] = readOnly ? [] : (await manager.listTools(agent)).map((e) => e.tool);
      this.#shown = this.#signature();
      return { tools: [...RESOURCE_TOOLS, ...serverTools] };
    });

    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name } = request.params;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      try {
        if (name === LIST_RESOURCES || name === READ_RESOURCE) return await this.#resourceTool(name, args, extra.requestId, extra.signal);
        if (readOnly) return toolError(`${name} was refused: this client connected in read-only mode, where only ${LIST_RESOURCES} and ${READ_RESOURCE} run`);
        const entry = manager.catalog(agent).byExposedName(name) ?? (await manager.listTools(agent)).find((e) => e.exposedName === name);
        if (!entry) throw new RpcError(ErrorCode.InvalidParams, `unknown tool ${name}`);
        const config = manager.connection(entry.server).config;
        const approval = await this.#approver.approve({
          server: entry.server,
          tool: entry.originalName,
          args,
          autoApprove: config.autoApprove,
          inSettings: config.source.kind === 'global',
          permissions: this.#opts.settings().permissions,
          requestId: extra.requestId,
          signal: extra.signal,
        });
        if (!approval.ok) return toolError(approval.message);
        const progressToken = request.params._meta?.progressToken;
        // A shared server's requests reach its callers from every workspace (see prepareServerRequests).
        const scope = manager.isShared(entry.server) ? SHARED_CALLERS : workspace.root;
        const leave = this.#opts.callers.enter(scope, entry.server, { server: this.server, requestId: extra.requestId });
        try {
          const result = await manager.callTool(name, args, {
            agent,
            signal: extra.signal,
            ...(progressToken === undefined
              ? {}
              : { onprogress: (p) => void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken } }).catch(() => undefined) }),
          });
          return this.#bounded(name, result);
        } finally {
          leave();
        }
      } catch (err) {
        if (isBlitzError(err)) return toolError(err.message);
        throw RpcError.passOn(err);
      }
    });

    this.server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: (await manager.listResources(agent)).map((e) => e.resource),
    }));
    this.server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: (await manager.listResourceTemplates(agent)).map(({ server: _server, ...t }) => t),
    }));
    this.server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const { server: _server, ...result } = await rpc(() => manager.readResource(request.params.uri, { agent, signal: extra.signal }));
      return result;
    });
    this.server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: (await manager.listPrompts(agent)).map((e) => e.prompt),
    }));
    this.server.setRequestHandler(GetPromptRequestSchema, async (request, extra) =>
      rpc(() => manager.getPrompt(request.params.name, request.params.arguments ?? {}, { agent, signal: extra.signal })),
    );
    this.server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  }

  /** The resource tools (MCP-35): approved like the server's tools, by rule or auto_approve (MCP-43). */
  async #resourceTool(name: string, args: Record<string, unknown>, requestId: RequestId, signal: AbortSignal): Promise<CallToolResult> {
    const { workspace, agent } = this.#opts;
    const server = typeof args.server === 'string' && args.server !== '' ? args.server : undefined;
    if (name === READ_RESOURCE && (server === undefined || typeof args.uri !== 'string')) {
      return toolError(`${READ_RESOURCE} needs "server" and "uri"`);
    }
    if (server !== undefined) {
      const config = workspace.manager.connections().find((c) => c.name === server)?.config;
      if (!config) return toolError(`no MCP server named "${server}" in this workspace`);
      const approval = await this.#approver.approve({ server, tool: name, args, autoApprove: config.autoApprove, inSettings: config.source.kind === 'global', permissions: this.#opts.settings().permissions, requestId, signal });
      if (!approval.ok) return toolError(approval.message);
    }
    if (name === LIST_RESOURCES) {
      const entries = await workspace.manager.listResources(agent, server);
      // Across servers no one is asked, but a server whose resources a rule denies stays out.
      const permissions = this.#opts.settings().permissions;
      const allowed = (s: string) => decide(permissions, permissionKey(s, LIST_RESOURCES), false).kind !== 'deny';
      return formatResourceList(server === undefined ? entries.filter((e) => allowed(e.server)) : entries);
    }
    const read = await workspace.manager.readResource(args.uri as string, { agent, server: server!, signal });
    return formatResourceRead(server!, read);
  }

  /** A result larger than `[hub] max_result_mb` is refused with its size (never passed on whole). */
  #bounded(name: string, result: CallToolResult): CallToolResult {
    const limitMb = this.#opts.settings().hub.maxResultMb;
    const size = Buffer.byteLength(JSON.stringify(result));
    if (size <= limitMb * 1024 * 1024) return result;
    return toolError(`the result of ${name} is ${formatBytes(size)}, more than [hub] max_result_mb = ${limitMb}; it was not passed on`);
  }
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs a pass-through request, turning Blitz errors into JSON-RPC errors the client understands. */
async function rpc<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isBlitzError(err, 'NOT_FOUND') || isBlitzError(err, 'INVALID_ARGUMENT')) {
      throw new RpcError(ErrorCode.InvalidParams, err.problems.length ? `${err.message}: ${err.problems.join('; ')}` : err.message);
    }
    if (isBlitzError(err)) throw new RpcError(ErrorCode.InternalError, err.message);
    throw RpcError.passOn(err);
  }
}
