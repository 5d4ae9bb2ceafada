/**
 * How people shorten or name things in software work, against the words tools are described in
 * (issue 30, query understanding): "PR" for pull request, "repo", "folder" for directory, "k8s".
 * English synonyms (english-synonyms.ts) know none of these: they are the trade's own words.
 */
const TERMS: Record<string, string> = {
  pr: 'pull request',
  prs: 'pull requests',
  mr: 'merge request',
  mrs: 'merge requests',
  repo: 'repository',
  repos: 'repositories',
  dir: 'directory',
  dirs: 'directories',
  folder: 'directory',
  folders: 'directories',
  k8s: 'kubernetes',
  db: 'database',
  dbs: 'databases',
  env: 'environment',
  envs: 'environments',
  ticket: 'issue',
  tickets: 'issues',
  bug: 'issue',
  bugs: 'issues',
  todo: 'task',
  todos: 'tasks',
  msg: 'message',
  msgs: 'messages',
  dm: 'direct message',
  creds: 'credentials',
  deps: 'dependencies',
  perf: 'performance',
  auth: 'authentication',
  lib: 'library',
  libs: 'libraries',
  pkg: 'package',
  img: 'image',
  pic: 'image',
  save: 'write',
  saved: 'written',
  remove: 'delete',
  erase: 'delete',
  rename: 'move',
  sql: 'sql query',
  row: 'record',
  rows: 'records',
  undo: 'reset revert',
  thumbs: 'reaction',
  emoji: 'reaction',
  remember: 'knowledge observation',
  xhr: 'network request',
  ajax: 'network request',
};

/** The words `word` stands for in the tools' words (none when it is no shorthand). */
export function developerTerms(word: string): string[] {
  const meant = Object.hasOwn(TERMS, word) ? TERMS[word] : undefined;
  return meant === undefined ? [] : meant.split(' ');
}
