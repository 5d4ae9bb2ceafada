/**
 * Finds the line of a table or key in TOML text, so problems can name it. smol-toml gives
 * no positions for values, and a rough scan is enough here: a wrong guess only costs the
 * line number in a message, never a value.
 */
interface Block {
  header: string;
  array: boolean;
  line: number;
  keys: Map<string, number>;
}

const HEADER = /^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
const KEY = /^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=/;

function normalizeKey(key: string): string {
  return key
    .split('.')
    .map((part) => part.trim().replace(/^["']|["']$/g, ''))
    .join('.');
}

function scan(text: string): Block[] {
  const blocks: Block[] = [{ header: '', array: false, line: 1, keys: new Map() }];
  let openQuote: string | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (openQuote) {
      if (raw.split(openQuote).length % 2 === 0) openQuote = undefined;
      return;
    }
    const header = HEADER.exec(raw);
    if (header) {
      blocks.push({ header: normalizeKey(header[2]!), array: header[1] === '[[', line, keys: new Map() });
      return;
    }
    const key = KEY.exec(raw);
    if (key) blocks.at(-1)!.keys.set(normalizeKey(key[1]!), line);
    for (const quote of ['"""', "'''"]) {
      if (raw.split(quote).length % 2 === 0) openQuote = quote;
    }
  });
  return blocks;
}

export class TomlLocator {
  readonly #blocks: Block[];
  /** Block index of each `[[mcp.servers]]` entry, found once: a problem per server must not rescan the file. */
  readonly #serverStarts: number[];

  constructor(text: string) {
    this.#blocks = scan(text);
    this.#serverStarts = this.#blocks.flatMap((b, i) => (b.array && b.header === 'mcp.servers' ? [i] : []));
  }

  /** Line of the `index`-th `[[mcp.servers]]` entry, or of one of its fields (the entry's when the field is not written there). */
  server(index: number, field?: string): number | undefined {
    const start = this.#serverStarts[index];
    if (start === undefined) return undefined;
    return (field === undefined ? undefined : this.serverField(index, field)) ?? this.#blocks[start]!.line;
  }

  /** Line of a field of the `index`-th `[[mcp.servers]]` entry, as written there (inline, or in a sub-table); undefined when it is not. */
  serverField(index: number, field: string): number | undefined {
    const start = this.#serverStarts[index];
    if (start === undefined) return undefined;
    const entry = this.#blocks[start]!;
    const direct = entry.keys.get(field);
    if (direct !== undefined) return direct;
    const [first, ...rest] = field.split('.');
    const inline = entry.keys.get(first!);
    if (inline !== undefined) return inline;
    for (let i = start + 1; i < this.#blocks.length; i++) {
      const block = this.#blocks[i]!;
      if (!block.header.startsWith('mcp.servers.')) break;
      if (block.header === `mcp.servers.${first}`) return rest.length ? (block.keys.get(rest.join('.')) ?? block.line) : block.line;
    }
    return undefined;
  }

  /** Line of a plain table (`permissions`) or one of its keys. */
  table(name: string, key?: string): number | undefined {
    const block = this.#blocks.find((b) => !b.array && b.header === name);
    if (block) return key === undefined ? block.line : (block.keys.get(key) ?? block.line);
    return this.#blocks[0]!.keys.get(key === undefined ? name : `${name}.${key}`);
  }
}
