/**
 * The words of a tool's text, as the search index and its queries see them: split on
 * anything that is not a letter or digit (`_`, `-`, `.`, `/`, spaces) and on camelCase
 * humps (`getUserById` → get, user, by, id; `HTTPServer` → http, server), lowercased.
 */
export function splitWords(text: string): string[] {
  const spaced = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
  return spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/**
 * The words the index and queries match on: splitWords', and each word written in humps
 * whole as well (`GitHub` → git, hub, github; `LaunchDarkly` → launch, darkly, launchdarkly),
 * so that "github" in a query meets "GitHub" in a description.
 */
export function indexWords(text: string): string[] {
  const words = splitWords(text);
  for (const token of text.split(/[^\p{L}\p{N}]+/u)) {
    if (/\p{Ll}\p{Lu}/u.test(token)) words.push(token.toLowerCase());
  }
  return words;
}

/** A name's words joined by one space: `move_file`, `moveFile` and `move file` are one key. */
export function nameKey(name: string): string {
  return splitWords(name).join(' ');
}

/**
 * Words too common in English to tell tools apart; dropped from queries and indexed text so
 * that "what broke in production last night" is scored by what it is about.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our please should so than that the their them then there these this those to us was we ' +
    'were what when where which while who whom why will with would you your'
  ).split(' '),
);
