import type { GetPromptResult, ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { buildPromptCatalog, type PromptEntry } from '../catalog/build-prompt-catalog.js';
import { buildResourceCatalog, type ResourceEntry } from '../catalog/build-resource-catalog.js';
import { MAIN_AGENT } from '../catalog/agent-may-use.js';
import { promptPermissionKey, refuseIfDenied, resourcePermissionKey } from '../approval/approval-policy.js';
import type { CachedList } from '../catalog-cache/catalog-cache.js';
import type { ServerConnection } from '../connection/server-connection.js';
import { BlitzError } from '../errors/blitz-error.js';
import type { CachedCatalogs, ListItems } from './cached-catalogs.js';
import type { ListOptions, RouteOptions } from './route-options.js';
import type { WorkspaceServers } from './workspace-servers.js';

/** What the prompts and resources of a workspace need of its manager. */
export interface PromptsAndResourcesDeps {
  servers: WorkspaceServers;
  /** The agent's servers once started, or as many as answer within `waitMs` (list-wait.ts). */
  listable(agent: string, waitMs: number | undefined): Promise<ServerConnection[]>;
  cached: CachedCatalogs;
}

/**
 * The prompts and resources of a workspace's servers (MCP-36): listed across the servers an
 * agent may use (a failing one left out), named like tools, and routed to the server that
 * owns a prompt or a resource's URI.
 */
export class PromptsAndResources {
  readonly #deps: PromptsAndResourcesDeps;

  constructor(deps: PromptsAndResourcesDeps) {
    this.#deps = deps;
  }

  /** Every resource the agent's servers offer, merged by URI (first server wins). Servers that fail are left out. */
  async listResources(agent = MAIN_AGENT, server?: string, opts: ListOptions = {}): Promise<ResourceEntry[]> {
    const { cached } = this.#deps;
    const offered =
      server === undefined ? await this.#deps.listable(agent, opts.waitMs) : [this.#deps.servers.resolve(agent, server).connection];
    // Asked for one server, its failure is the answer; across servers, a failing one is left out.
    const lists = await Promise.all(
      offered.map(async (c) => ({
        server: c.name,
        resources:
          server === undefined
            ? (cached.list(c, 'resources') ?? (await this.#listed(c, 'resources', c.listResources()).catch(() => [])))
            : await c.listResources(),
      })),
    );
    return buildResourceCatalog(lists).entries;
  }

  async listResourceTemplates(agent = MAIN_AGENT, opts: ListOptions = {}): Promise<Array<ResourceTemplate & { server: string }>> {
    const { cached } = this.#deps;
    const lists = await Promise.all(
      (await this.#deps.listable(agent, opts.waitMs)).map(async (c) =>
        (
          cached.list(c, 'resourceTemplates') ?? (await this.#listed(c, 'resourceTemplates', c.listResourceTemplates()).catch(() => []))
        ).map((t) => ({ ...t, server: c.name })),
      ),
    );
    return lists.flat();
  }

  /** Reads a resource from the server that owns its URI, or from the named server. */
  async readResource(uri: string, opts: RouteOptions & { server?: string } = {}): Promise<ReadResourceResult & { server: string }> {
    const agent = opts.agent ?? MAIN_AGENT;
    const connection =
      opts.server !== undefined
        ? this.#deps.servers.resolve(agent, opts.server).connection
        : this.#deps.servers.get(await this.resourceOwner(uri, agent));
    refuseIfDenied(opts.permissions, resourcePermissionKey(connection.name), `reading ${uri} (MCP server "${connection.name}")`);
    return {
      ...(await this.#deps.servers.interest(connection).during(opts, (key) => connection.readResource(uri, opts.signal, key))),
      server: connection.name,
    };
  }

  /** Prompts, named by the same prefix rule as tools (MCP-36). */
  async listPrompts(agent = MAIN_AGENT, opts: ListOptions = {}): Promise<PromptEntry[]> {
    const { cached } = this.#deps;
    const offered = await this.#deps.listable(agent, opts.waitMs);
    const lists = await Promise.all(
      offered.map(async (c) => ({
        server: c.name,
        ...(c.config.prefix === undefined ? {} : { prefix: c.config.prefix }),
        prompts: cached.list(c, 'prompts') ?? (await this.#listed(c, 'prompts', c.listPrompts()).catch(() => [])),
      })),
    );
    return buildPromptCatalog(lists).entries;
  }

  /** Gets a prompt by its exposed name; a missing required argument is refused before the server is asked. */
  async getPrompt(
    exposedName: string,
    args: Record<string, string>,
    opts: RouteOptions = {},
  ): Promise<GetPromptResult & { server: string }> {
    const entry = (await this.listPrompts(opts.agent)).find((p) => p.exposedName === exposedName);
    if (!entry) throw new BlitzError('NOT_FOUND', `unknown prompt ${exposedName}`, { reason: 'PROMPT_NOT_FOUND' });
    refuseIfDenied(
      opts.permissions,
      promptPermissionKey(entry.server, entry.originalName),
      `prompt ${exposedName} (MCP server "${entry.server}")`,
    );
    const missing = (entry.prompt.arguments ?? []).filter((a) => a.required && (args[a.name] === undefined || args[a.name] === ''));
    if (missing.length > 0) {
      throw new BlitzError('INVALID_ARGUMENT', `prompt ${exposedName} needs ${missing.map((a) => a.name).join(', ')}`, {
        reason: 'PROMPT_ARGUMENT_MISSING',
        problems: missing.map((a) => `${a.name}: is required${a.description ? ` (${a.description})` : ''}`),
      });
    }
    const connection = this.#deps.servers.get(entry.server);
    return {
      ...(await this.#deps.servers
        .interest(connection)
        .during(opts, (key) => connection.getPrompt(entry.originalName, args, opts.signal, key))),
      server: entry.server,
    };
  }

  /** The server that offers this resource URI, listed or matching one of its templates. */
  async resourceOwner(uri: string, agent: string): Promise<string> {
    const owner =
      (await this.listResources(agent)).find((r) => r.uri === uri)?.server ??
      // A URI made from a template is listed nowhere: the server whose template matches it owns it.
      (await this.listResourceTemplates(agent)).find((t) => new UriTemplate(t.uriTemplate).match(uri) !== null)?.server;
    if (owner === undefined) throw new BlitzError('NOT_FOUND', `no MCP server offers resource ${uri}`, { reason: 'RESOURCE_NOT_FOUND' });
    return owner;
  }

  /** A list the server itself answered, kept in the catalog cache for the next cold start. */
  async #listed<L extends CachedList>(c: ServerConnection, list: L, answer: Promise<ListItems[L]>): Promise<ListItems[L]> {
    const items = await answer;
    this.#deps.cached.listed(c, list, items);
    return items;
  }
}
