// The `synonyms` package (WordNet-derived English synonyms) ships no types.
declare module 'synonyms' {
  type Entry = Partial<Record<string, string[]>>;
  const synonyms: ((word: string, pos?: string) => Entry | string[] | undefined) & { dictionary: Record<string, Entry> };
  export default synonyms;
}
