import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Settings } from '@blitz/core';
import type { Workspace } from '../workspaces/workspace.js';
import { Approver } from './approver.js';
import type { Callers } from './callers.js';
import { registerLogging } from './logging-handlers.js';
import { registerPrompts } from './prompt-handlers.js';
import { registerResources } from './resource-handlers.js';
import type { SessionContext } from './session-context.js';
import { registerTools } from './tools-handlers.js';

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
    const ctx: SessionContext = {
      workspace: this.#opts.workspace,
      agent: this.#opts.agent,
      readOnly: this.#opts.readOnly,
      settings: this.#opts.settings,
      approver: this.#approver,
      toolsShown: () => {
        this.#shown = this.#signature();
      },
    };
    registerTools(this.server, ctx, this.#opts.callers);
    registerResources(this.server, ctx);
    registerPrompts(this.server, ctx);
    registerLogging(this.server, ctx);
  }
}
