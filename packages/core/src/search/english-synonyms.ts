import { createRequire } from 'node:module';

type Synonyms = typeof import('synonyms').default;

/**
 * The package's 700 KB dictionary, read on the first search rather than when core is imported:
 * evaluating it cost every daemon start ~180 ms (a third of it), before any server could start.
 */
function loadSynonyms(): Synonyms {
  return createRequire(import.meta.url)('synonyms') as Synonyms;
}

/**
 * English synonyms from the WordNet-derived dictionary of the `synonyms` package (27,779
 * head words), made symmetric: "relocation" finds "move" as "move" finds "relocation". Built
 * once, on first use, from data in the package: no network, no model.
 */
let table: Map<string, readonly string[]> | undefined;

function build(): Map<string, readonly string[]> {
  const sets = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    let set = sets.get(a);
    if (set === undefined) sets.set(a, (set = new Set()));
    set.add(b);
  };
  for (const [head, entry] of Object.entries(loadSynonyms().dictionary)) {
    for (const words of Object.values(entry)) {
      for (const word of words ?? []) {
        // One word each way only: the data has stray part-of-speech letters ("n", "v") and
        // phrases ("stone-broke") whose parts would match on their own.
        if (word === head || !/^[a-z]{2,}$/.test(word) || !/^[a-z]{2,}$/.test(head)) continue;
        link(head, word);
        link(word, head);
      }
    }
  }
  return new Map([...sets].map(([word, set]) => [word, [...set]]));
}

/** Base forms to look a word up by: the word, then it without a plural or verb ending. */
function lemmas(word: string): string[] {
  const forms = [word];
  const add = (form: string): void => {
    if (form.length > 2 && !forms.includes(form)) forms.push(form);
  };
  if (word.endsWith('ies')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) add(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) add(word.slice(0, -1));
  if (word.endsWith('ed')) {
    add(word.slice(0, -2));
    add(word.slice(0, -1));
  }
  if (word.endsWith('ing')) {
    add(word.slice(0, -3));
    add(`${word.slice(0, -3)}e`);
  }
  return forms;
}

/** The synonyms of an English word (lowercase), none for a word the dictionary lacks. */
export function englishSynonyms(word: string): readonly string[] {
  table ??= build();
  for (const form of lemmas(word)) {
    const found = table.get(form);
    if (found !== undefined) return found;
  }
  return [];
}
