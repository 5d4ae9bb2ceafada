import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildPromptCatalog, type ServerPrompts } from './build-prompt-catalog.js';

const prompt = (name: string): Prompt => ({ name, arguments: [{ name: 'topic', required: true }] });
const server = (name: string, prompts: string[], prefix?: string): ServerPrompts => ({
  server: name,
  prompts: prompts.map(prompt),
  ...(prefix === undefined ? {} : { prefix }),
});

describe('buildPromptCatalog', () => {
  it.each<[string, ServerPrompts[], string[], Record<string, string[]>]>([
    ['a prompt keeps its name without a prefix', [server('a', ['review'])], ['a:review→review'], {}],
    [
      'a prefix names prompts as it names tools',
      [server('gh', ['review', 'triage'], 'gh')],
      ['gh:review→gh__review', 'gh:triage→gh__triage'],
      {},
    ],
    ['prompt names are sanitized as tool names are', [server('a', ['code review'], 'x.y')], ['a:code review→x_y__code_review'], {}],
    [
      'the same name from two servers: the first wins',
      [server('a', ['review']), server('b', ['review'])],
      ['a:review→review'],
      {
        b: [
          'prompt "review" is skipped: server "a" already offers "review"; give server "b" a prefix to offer it: blitz mcp set b --prefix b',
        ],
      },
    ],
    ['a prefix avoids the clash', [server('a', ['review']), server('b', ['review'], 'b')], ['a:review→review', 'b:review→b__review'], {}],
    [
      'a prompt offered twice by one server: the first is kept',
      [server('a', ['review', 'review'])],
      ['a:review→review'],
      { a: ['prompt "review" is offered twice; the first is kept'] },
    ],
  ])('%s', (_title, servers, entries, warnings) => {
    const result = buildPromptCatalog(servers);
    expect(result.entries.map((e) => `${e.server}:${e.originalName}→${e.exposedName}`)).toEqual(entries);
    expect(Object.fromEntries(result.warnings)).toEqual(warnings);
  });

  it('an entry carries the prompt renamed, arguments and all', () => {
    const { entries } = buildPromptCatalog([server('gh', ['review'], 'gh')]);
    expect(entries).toEqual([
      { exposedName: 'gh__review', server: 'gh', originalName: 'review', prompt: { ...prompt('review'), name: 'gh__review' } },
    ]);
  });

  it('a prompt may not shadow a built-in prompt', () => {
    const { entries, warnings } = buildPromptCatalog([server('a', ['help'])], ['help']);
    expect(entries).toEqual([]);
    expect(warnings.get('a')).toEqual([
      'prompt "help" is skipped: "help" is a built-in prompt; give server "a" a prefix to offer it: blitz mcp set a --prefix a',
    ]);
  });
});
