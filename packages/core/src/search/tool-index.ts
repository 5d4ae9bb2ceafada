import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { englishSynonyms } from './english-synonyms.js';
import { nameKey, splitWords, STOP_WORDS } from './words.js';

/** One tool as the index sees it: the catalog entry and its server's instructions. */
export interface SearchableTool {
  exposedName: string;
  server: string;
  originalName: string;
  tool: Tool;
  serverInstructions?: string;
}

/** How far a query is taken beyond its own words; both on by default (plain BM25 is both off). */
export interface ToolIndexOptions {
  /** Porter stems on both sides: "renaming" meets "rename". */
  stemming?: boolean;
  /** English synonyms of the query's words, weighed below the words themselves. */
  synonyms?: boolean;
}

export interface ToolMatch {
  exposedName: string;
  server: string;
  /** Why it ranks where it does: its name is the query, starts with it, or BM25 over its words. */
  match: 'name' | 'namePrefix' | 'words';
  score: number;
}

export interface ToolSearchOptions {
  limit: number;
  /** Only tools this accepts are returned (what a session may call). */
  filter?: (exposedName: string) => boolean;
}

/** Field boosts: a word in the name says more about a tool than one in a parameter's description. */
const BOOST = { name: 3, title: 2, description: 1, server: 1, params: 0.5, instructions: 0.2 } as const;
type Field = keyof typeof BOOST;
const FIELDS = Object.keys(BOOST) as Field[];
/** A synonym counts for this much of the word it stands for. */
const SYNONYM_WEIGHT = 0.3;
/** Synonyms taken of one word: the dictionary lists the closest first, and each costs a lookup. */
const MAX_SYNONYMS = 6;
/** A file name (`draft.md`) or path in a query says the task is about a file. */
const FILE_NAME = /^[\w-]+\.[A-Za-z0-9]{1,5}$|\//;
/** Below this many characters a query is not taken as the start of a name. */
const MIN_PREFIX = 3;

interface Doc {
  id: string;
  server: string;
  fields: Record<Field, string>;
}

/** The words a tool's input schema gives its parameters: names and descriptions, nested ones too. */
function parameterText(schema: unknown, depth = 0): string {
  if (depth > 3 || typeof schema !== 'object' || schema === null) return '';
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
    parts.push(name);
    if (typeof value !== 'object' || value === null) continue;
    const description = (value as { description?: unknown }).description;
    if (typeof description === 'string') parts.push(description);
    parts.push(parameterText(value, depth + 1), parameterText((value as { items?: unknown }).items, depth + 1));
  }
  return parts.filter((p) => p !== '').join(' ');
}

/**
 * A local full-text index of a catalog's tools (issue 16): BM25 (MiniSearch's BM25+) over
 * each tool's names, title, description, parameters, server and server instructions, with
 * field boosts, Porter stemming and English synonyms; a query that is a tool's name, or
 * the start of one, ranks that tool first. Never calls a server, needs no network.
 */
export class ToolIndex {
  readonly #search: MiniSearch<Doc>;
  readonly #stem: (word: string) => string;
  readonly #synonyms: boolean;
  /** Every term the index holds: a query word among them needs no synonym. */
  readonly #vocabulary = new Set<string>();
  /** Exposed name → the name keys a query is compared with (exposed and original). */
  readonly #names = new Map<string, { server: string; keys: string[] }>();

  constructor(tools: readonly SearchableTool[], options: ToolIndexOptions = {}) {
    this.#stem = options.stemming === false ? (w) => w : (w) => stemmer(w);
    this.#synonyms = options.synonyms !== false;
    const stem = this.#stem;
    const vocabulary = this.#vocabulary;
    this.#search = new MiniSearch<Doc>({
      fields: FIELDS,
      idField: 'id',
      extractField: (doc, field) => (field === 'id' ? doc.id : doc.fields[field as Field]),
      tokenize: splitWords,
      processTerm: (term) => {
        if (STOP_WORDS.has(term)) return null;
        const stemmed = stem(term);
        vocabulary.add(stemmed);
        return stemmed;
      },
    });
    const docs: Doc[] = [];
    for (const t of tools) {
      if (this.#names.has(t.exposedName)) continue;
      this.#names.set(t.exposedName, { server: t.server, keys: [...new Set([nameKey(t.exposedName), nameKey(t.originalName)])] });
      docs.push({
        id: t.exposedName,
        server: t.server,
        fields: {
          name: `${t.exposedName} ${t.originalName}`,
          title: t.tool.title ?? t.tool.annotations?.title ?? '',
          description: t.tool.description ?? '',
          server: t.server,
          params: parameterText(t.tool.inputSchema),
          instructions: t.serverInstructions ?? '',
        },
      });
    }
    this.#search.addAll(docs);
  }

  get size(): number {
    return this.#names.size;
  }

  /** The best matches for `query`, best first: name matches, then by score, ties by name. */
  search(query: string, options: ToolSearchOptions): ToolMatch[] {
    const allowed = options.filter ?? (() => true);
    const key = nameKey(query);
    const named: ToolMatch[] = [];
    if (key !== '') {
      for (const [exposedName, { server, keys }] of this.#names) {
        if (!allowed(exposedName)) continue;
        if (keys.includes(key)) named.push({ exposedName, server, match: 'name', score: Infinity });
        else if (key.length >= MIN_PREFIX && keys.some((k) => k.startsWith(key))) {
          named.push({ exposedName, server, match: 'namePrefix', score: Infinity });
        }
      }
    }
    const weights = this.#queryTerms(query);
    const byWords = weights.size === 0
      ? []
      : this.#search.search([...weights.keys()].join(' '), {
          tokenize: (text) => text.split(' '),
          processTerm: (term) => term,
          boostTerm: (term) => weights.get(term) ?? 1,
          boost: BOOST,
          filter: (result) => allowed(result.id as string),
        });
    const scores = new Map(byWords.map((r) => [r.id as string, r.score]));
    for (const m of named) m.score = scores.get(m.exposedName) ?? 0;
    const order = (a: ToolMatch, b: ToolMatch): number => b.score - a.score || (a.exposedName < b.exposedName ? -1 : a.exposedName > b.exposedName ? 1 : 0);
    const exact = named.filter((m) => m.match === 'name').sort(order);
    const prefix = named.filter((m) => m.match === 'namePrefix').sort(order);
    const seen = new Set(named.map((m) => m.exposedName));
    const rest = byWords
      .filter((r) => !seen.has(r.id as string))
      .map((r): ToolMatch => ({ exposedName: r.id as string, server: this.#names.get(r.id as string)!.server, match: 'words', score: r.score }))
      .sort(order);
    return [...exact, ...prefix, ...rest].slice(0, Math.max(0, options.limit));
  }

  /** The query's terms as indexed (stemmed), each with its weight: its own words 1, synonyms less. */
  #queryTerms(query: string): Map<string, number> {
    const weights = new Map<string, number>();
    const add = (word: string, weight: number): void => {
      if (STOP_WORDS.has(word)) return;
      const term = this.#stem(word);
      weights.set(term, Math.max(weights.get(term) ?? 0, weight));
    };
    const words: string[] = [];
    for (const token of query.split(/\s+/)) {
      // "rename draft.md": the name's words say little; that it names a file says a lot.
      const file = FILE_NAME.test(token);
      for (const word of splitWords(token)) {
        add(word, file ? SYNONYM_WEIGHT : 1);
        if (!file) words.push(word);
      }
      if (file) add('file', 1);
    }
    if (this.#synonyms) {
      // Only a word no tool uses is taken in other words: the synonyms of one a tool uses add noise, not recall.
      for (const word of words) {
        if (STOP_WORDS.has(word) || this.#vocabulary.has(this.#stem(word))) continue;
        for (const synonym of englishSynonyms(word).slice(0, MAX_SYNONYMS)) add(synonym, SYNONYM_WEIGHT);
      }
    }
    return weights;
  }
}
