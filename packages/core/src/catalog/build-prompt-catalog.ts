import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import { buildNamedCatalog } from './named-catalog.js';
import type { ServerWarnings } from './server-warnings.js';

/** What one server offers as prompts. */
export interface ServerPrompts {
  server: string;
  /** The server's `prefix` setting: prompts are named by the same rule as tools (MCP-36). */
  prefix?: string;
  prompts: readonly Prompt[];
}

/** One prompt in the hub's catalog. */
export interface PromptEntry {
  exposedName: string;
  server: string;
  /** The name to ask the server for (`prompts/get`). */
  originalName: string;
  /** The server's prompt with `name` replaced by `exposedName`; handed to clients as is. */
  prompt: Prompt;
}

export interface PromptCatalog {
  entries: PromptEntry[];
  warnings: ServerWarnings;
}

/**
 * The hub's prompt catalog, merged exactly as tools are (same naming, first server wins).
 * The `tools` allow-list does not apply: it names tools only. `builtIns` defaults to none,
 * since the hub offers no prompts of its own today.
 */
export function buildPromptCatalog(servers: readonly ServerPrompts[], builtIns: readonly string[] = []): PromptCatalog {
  const sources = servers.map(({ prompts, ...rest }) => ({ ...rest, items: prompts }));
  const { entries, warnings } = buildNamedCatalog(sources, { noun: 'prompt', reserved: builtIns });
  return {
    entries: entries.map(({ item, ...rest }) => ({ ...rest, prompt: item })),
    warnings,
  };
}
