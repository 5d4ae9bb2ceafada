/** A first sentence longer than this is cut at a word: past it, a description is saying how, not what. */
const MAX_CHARS = 200;

/**
 * What a tool does, in its description's first sentence (up to a full stop, a line break or
 * MAX_CHARS): "Get details of a merge request. Use this for a known resource…" → its first six words.
 */
export function firstSentence(description: string): string {
  const text = description.trimStart();
  const end = text.search(/[.!?](\s|$)|\n/);
  const first = end === -1 ? text : text.slice(0, end + 1);
  if (first.length <= MAX_CHARS) return first.trimEnd();
  const cut = first.lastIndexOf(' ', MAX_CHARS);
  return first.slice(0, cut > 0 ? cut : MAX_CHARS);
}
