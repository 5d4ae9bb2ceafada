/** Which servers the list shows: all, those that need the user, or those on or off. */
export type StateFilter = 'all' | 'attention' | 'on' | 'off';

/** What a server is searched by. */
export interface Searchable {
  name: string;
  /** Its command line or URL. */
  target: string;
  /** Its state as the list reads it (`failed`, `needs sign-in`, …). */
  state: string;
  enabled: boolean;
  /** Failed, paused, needs a sign-in or more access, or has tools in review. */
  attention: boolean;
  /** The names of its tools, in every open workspace. */
  tools: readonly string[];
}

/**
 * Whether a server matches the search and the filter (issue 29.9): every word of the query
 * is in its name, command or URL, state, or one of its tools' names, case aside. `tools` are
 * the tools that matched a word, to show on its row.
 */
export function matchServer(server: Searchable, query: string, filter: StateFilter): { match: boolean; tools: string[] } {
  if (!passes(server, filter)) return { match: false, tools: [] };
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { match: true, tools: [] };
  const own = `${server.name} ${server.target} ${server.state}`.toLowerCase();
  const tools = new Set<string>();
  for (const word of words) {
    const byTool = server.tools.filter((t) => t.toLowerCase().includes(word));
    if (!own.includes(word) && byTool.length === 0) return { match: false, tools: [] };
    for (const t of byTool) tools.add(t);
  }
  return { match: true, tools: [...tools] };
}

function passes(server: Searchable, filter: StateFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'attention':
      return server.enabled && server.attention;
    case 'on':
      return server.enabled;
    case 'off':
      return !server.enabled;
    default: {
      const _exhaustive: never = filter;
      return _exhaustive;
    }
  }
}
