/** One tool as the service words read it: its server, and the words of its name and of what it does (first sentence). */
export interface ServiceTool {
  server: string;
  words: readonly string[];
}

export interface ServiceWordsOptions {
  /** A word as the index holds it (stemmed). */
  term(word: string): string;
  /** Whether `word` is everyday English ("memory", "table"): such a word names a server only by its tools' use of it. */
  common(word: string): boolean;
}

/** A word names a server by use when at least this share of the server's tools use it… */
const MIN_SHARE_OF_SERVER = 0.5;
/** …and at least this share of the tools that use it are the server's: "github", "slack", "notion", not "file". */
const MIN_SHARE_OF_WORD = 0.7;
/** A server of fewer tools says too little by its own words' use. */
const MIN_TOOLS = 2;
/** Words every MCP server could be called by. */
const GENERIC = new Set(
  'api apis mcp server servers tool tools service http https url json id data ci config configuration doc docs documentation'.split(' '),
);

/**
 * The words that name a service (issue 30, query understanding): "on GitHub, …", "tell #deploys
 * on slack …", "in our gitlab project". A word names a server when most of the server's tools
 * use it and most tools that use it are the server's (`slack_post_message`, "… in a GitHub
 * repository", a prefix), and it is no everyday word, unless it is also the server's name
 * ("notion", "maps"); a word of the server's name alone names it when it is no everyday word
 * ("postgres", "kubernetes"), so that neither "everything" nor "memory" names a server.
 */
export class ServiceWords {
  /** Term → the servers it names. */
  readonly #servers = new Map<string, Set<string>>();

  constructor(tools: readonly ServiceTool[], options: ServiceWordsOptions) {
    const toolsOf = new Map<string, number>();
    /** term → server → how many of its tools use the term. */
    const uses = new Map<string, Map<string, number>>();
    /** term → whether every word it stands for is everyday English. */
    const everyday = new Map<string, boolean>();
    const name = (term: string, server: string): void => {
      let named = this.#servers.get(term);
      if (named === undefined) this.#servers.set(term, (named = new Set()));
      named.add(server);
    };
    for (const t of tools) {
      toolsOf.set(t.server, (toolsOf.get(t.server) ?? 0) + 1);
      const terms = new Set<string>();
      for (const word of t.words) {
        if (GENERIC.has(word)) continue;
        const term = options.term(word);
        terms.add(term);
        everyday.set(term, (everyday.get(term) ?? true) && options.common(word));
      }
      for (const term of terms) {
        let byServer = uses.get(term);
        if (byServer === undefined) uses.set(term, (byServer = new Map()));
        byServer.set(t.server, (byServer.get(t.server) ?? 0) + 1);
      }
    }
    const nameTerms = new Map<string, Set<string>>();
    for (const server of toolsOf.keys()) {
      nameTerms.set(server, new Set());
      for (const word of server.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
        if (word === '' || GENERIC.has(word)) continue;
        const term = options.term(word);
        nameTerms.get(server)!.add(term);
        if (!options.common(word)) name(term, server);
      }
    }
    for (const [term, byServer] of uses) {
      let all = 0;
      for (const n of byServer.values()) all += n;
      for (const [server, n] of byServer) {
        const size = toolsOf.get(server)!;
        if (size < MIN_TOOLS || n / size < MIN_SHARE_OF_SERVER || n / all < MIN_SHARE_OF_WORD) continue;
        if (everyday.get(term) && !nameTerms.get(server)!.has(term)) continue;
        name(term, server);
      }
    }
  }

  /** The servers `terms` (a query's, stemmed) name; empty when no term names one. */
  named(terms: Iterable<string>): Set<string> {
    const servers = new Set<string>();
    for (const term of terms) for (const s of this.#servers.get(term) ?? []) servers.add(s);
    return servers;
  }

  /** Every naming term and its servers, sorted. */
  entries(): [string, string[]][] {
    return [...this.#servers]
      .map(([term, servers]): [string, string[]] => [term, [...servers].sort()])
      .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }
}
