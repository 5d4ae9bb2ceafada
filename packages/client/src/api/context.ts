/** `/v1/workspaces/ID/context`: what each client's tool list costs it (issue 30.4, `blitz context`). */

/** Tools, the bytes of their JSON, and the tokens the tokenizer counts in it. */
export interface ContextCost {
  tools: number;
  bytes: number;
  tokens: number;
}

/** One server's part of a client's list: what is listed, and how many of its tools wait behind `search_tools`. */
export interface ServerContext extends ContextCost {
  server: string;
  deferred: number;
}

export interface ClientContext {
  /** The `clientInfo.name` the client sends; absent for any other client. */
  client?: string;
  /** Its name for people: `Claude Code`, or `any other client`. */
  label: string;
  /** How it is offered the tools, in a line (`every tool listed`). */
  surface: string;
  /** Where that comes from: its settings, what Blitz knows of it, or `[hub]`. */
  because: string;
  /** Its whole `tools/list` answer. */
  listed: ContextCost;
  /** Each server's part of it, in list order; `blitz` is the hub's own tools. */
  servers: ServerContext[];
  /** The answer with every tool listed, as with `deferred = "never"`. */
  everyTool: ContextCost;
  /** What its surface saves against every tool listed (0 when nothing is deferred). */
  saved: { bytes: number; tokens: number };
}

export interface ContextReceipt {
  workspace: string;
  agent: string;
  /** The tokenizer that counted: its encoding and package. */
  tokenizer: string;
  clients: ClientContext[];
}
