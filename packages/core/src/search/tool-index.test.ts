import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolIndex, type SearchableTool } from './tool-index.js';
import { wordTable } from '../testing/word-table.js';

/** A tool of server `server`, exposed under its own name unless `exposed` is given. */
function tool(server: string, name: string, description: string, extra: Partial<Tool> & { exposed?: string } = {}): SearchableTool {
  const { exposed, ...rest } = extra;
  return {
    server,
    exposedName: exposed ?? name,
    originalName: name,
    tool: { name: exposed ?? name, description, inputSchema: { type: 'object' }, ...rest },
  };
}

const catalog: SearchableTool[] = [
  tool('files', 'move_file', 'Move or rename files and directories.', {
    inputSchema: {
      type: 'object',
      properties: { source: { type: 'string', description: 'Path to move from' }, destination: { type: 'string' } },
    },
  }),
  tool('files', 'read_text_file', 'Read the complete contents of a file as text.'),
  tool('files', 'list_directory', 'Get a listing of all files and directories in a path.'),
  tool('tracker', 'search_issues', 'Find errors and crashes reported by your application.', { exposed: 'tracker_search_issues' }),
  tool('tracker', 'get_issue', 'Details of one error event.', { exposed: 'tracker_get_issue' }),
  tool('browser', 'browser_take_screenshot', 'Take a screenshot of the current page.'),
  tool('browser', 'browserNavigate', 'Go to a URL.'),
  tool('payments', 'create_invoice', 'Create an invoice for a customer.', { title: 'New invoice' }),
];

const names = (index: ToolIndex, query: string, limit = 5): string[] => index.search(query, { limit }).map((m) => m.exposedName);

describe('ToolIndex', () => {
  const index = new ToolIndex(catalog);

  it('ranks an exact name first, whatever its words score', () => {
    expect(index.search('get_issue', { limit: 3 })[0]).toEqual(
      expect.objectContaining({ exposedName: 'tracker_get_issue', match: 'name' }),
    );
    expect(names(index, 'browser navigate')[0]).toBe('browserNavigate');
  });

  it('ranks names the query starts before word matches', () => {
    const matches = index.search('browser_', { limit: 5 });
    expect(matches.slice(0, 2).map((m) => m.match)).toEqual(['namePrefix', 'namePrefix']);
    expect(
      matches
        .slice(0, 2)
        .map((m) => m.exposedName)
        .sort(),
    ).toEqual(['browserNavigate', 'browser_take_screenshot']);
  });

  it('finds by description, title, parameters and server', () => {
    expect(names(index, 'rename draft.md')[0]).toBe('move_file');
    expect(names(index, 'new invoice')[0]).toBe('create_invoice');
    expect(names(index, 'destination')[0]).toBe('move_file');
    expect(names(index, 'tracker')).toEqual(expect.arrayContaining(['tracker_search_issues', 'tracker_get_issue']));
  });

  it('stems: "screenshots" and "listing" meet "screenshot" and "list"', () => {
    const plain = new ToolIndex(catalog, { stemming: false, synonyms: false, wordVectors: false });
    expect(names(plain, 'screenshots')).toEqual([]);
    expect(names(index, 'screenshots')[0]).toBe('browser_take_screenshot');
  });

  it('takes English synonyms: "bill a client" finds the invoice tool, plain BM25 does not', () => {
    const stemmedOnly = new ToolIndex(catalog, { synonyms: false, wordVectors: false, sentenceVectors: false });
    expect(names(stemmedOnly, 'bill a client')).toEqual([]);
    expect(names(index, 'bill a client')[0]).toBe('create_invoice');
  });

  it('ignores stop words, so a question with no content finds nothing', () => {
    expect(names(index, 'what is it')).toEqual([]);
  });

  it('returns only what the filter allows, and at most limit', () => {
    const allowed = new Set(['read_text_file', 'list_directory']);
    expect(index.search('file', { limit: 10, filter: (n) => allowed.has(n) }).every((m) => allowed.has(m.exposedName))).toBe(true);
    expect(index.search('get_issue', { limit: 5, filter: (n) => n !== 'tracker_get_issue' }).map((m) => m.exposedName)).not.toContain(
      'tracker_get_issue',
    );
    expect(index.search('file', { limit: 1 })).toHaveLength(1);
  });

  it('orders equal scores by name, so the same query always answers the same', () => {
    const twins = new ToolIndex([tool('a', 'zeta_ping', 'Ping.'), tool('b', 'alpha_ping', 'Ping.')]);
    expect(names(twins, 'ping')).toEqual(['alpha_ping', 'zeta_ping']);
  });

  it('a smaller limit answers the first matches of a larger one (only that many are ranked out)', () => {
    const many = new ToolIndex(
      Array.from({ length: 40 }, (_, i) =>
        tool('s', `ping_${String(i).padStart(2, '0')}`, i % 3 === 0 ? 'Ping a host, ping it again.' : 'Ping.'),
      ),
    );
    const all = names(many, 'ping', 40);
    expect(all).toHaveLength(40);
    for (const limit of [1, 3, 7, 20]) expect(names(many, 'ping', limit)).toEqual(all.slice(0, limit));
    expect(names(many, 'ping_0', 4)).toEqual(all.filter((n) => n.startsWith('ping_0')).slice(0, 4));
    expect(names(many, 'ping', 0)).toEqual([]);
  });
});

describe('ToolIndex with word vectors', () => {
  // A small table: 200 common English words first (the most frequent are no one's neighbour),
  // then words in three directions of meaning.
  const common = Array.from({ length: 199 }, (_, i) => `common${i}`);
  const table = wordTable(
    [...common, 'thing', 'flaky', 'intermittently', 'invoice', 'bill', 'stuff'],
    [...common.map(() => [0, 0, 0, 1]), [0, 0, 1, 0], [1, 0, 0, 0], [0.9, 0.2, 0, 0], [0, 1, 0, 0], [0.1, 0.95, 0, 0], [0, 0, 1, 0]],
  );
  const tools = [
    tool('ci', 'find_flaky_tests', 'Find flaky tests in a project.'),
    tool('payments', 'create_invoice', 'Create an invoice for a customer.'),
    tool('payments', 'pay_bill', 'Pay a bill.'),
    tool('misc', 'do_it', 'Do a thing.'),
  ];
  const index = new ToolIndex(tools, { wordVectors: table, synonyms: false, sentenceVectors: false });

  it('a word no tool uses finds the tools of the words nearest it in meaning; without vectors it finds nothing', () => {
    expect(names(index, 'which specs fail intermittently')[0]).toBe('find_flaky_tests');
    expect(
      names(new ToolIndex(tools, { wordVectors: false, synonyms: false, sentenceVectors: false }), 'which specs fail intermittently'),
    ).toEqual([]);
  });

  it('an exact name still ranks first, and its own words are not taken in other words', () => {
    expect(index.search('pay_bill', { limit: 5 }).map((m) => [m.exposedName, m.match])).toEqual([['pay_bill', 'name']]);
    expect(names(index, 'invoice')).toEqual(['create_invoice']);
  });

  it("a common English word is no one's neighbour, however near", () => {
    expect(names(index, 'stuff')).toEqual([]);
  });

  it('a word the table lacks finds nothing and costs nothing', () => {
    expect(names(index, 'zyzzyva')).toEqual([]);
  });
});

describe('ToolIndex with sentence vectors (the meaning ranking)', () => {
  // Directions of meaning: pictures, going somewhere, money; every word also shares a common
  // direction (the last), as a real table's words do.
  const table = wordTable(
    ['screenshot', 'image', 'capture', 'page', 'navigate', 'url', 'previous', 'invoice', 'customer', 'site'],
    [
      [1, 0, 0, 2],
      [0.9, 0.1, 0, 2],
      [0.8, 0, 0.2, 2],
      [0.3, 0.3, 0, 2],
      [0, 1, 0, 2],
      [0.1, 0.9, 0, 2],
      [0, 0.9, 0.1, 2],
      [0, 0, 1, 2],
      [0, 0.1, 0.9, 2],
      [0.3, 0.4, 0, 2],
    ],
  );
  const tools = [
    tool('browser', 'take_screenshot', 'Screenshot of the page.'),
    tool('browser', 'navigate', 'Navigate to a URL.'),
    tool('payments', 'create_invoice', 'Invoice a customer.'),
  ];
  const options = { wordVectors: false, synonyms: false, sentenceVectors: table } as const;
  const index = new ToolIndex(tools, options);

  it('a query that shares no word with a tool finds it by meaning; without the table it finds nothing', () => {
    expect(names(index, 'capture an image of the site')[0]).toBe('take_screenshot');
    expect(names(new ToolIndex(tools, { ...options, sentenceVectors: false }), 'capture an image of the site')).toEqual([]);
  });

  it('fuses by rank: a word match stays ahead of a tool that is only near in meaning', () => {
    // "page" is a word of take_screenshot; "previous" only comes near navigate in meaning.
    expect(names(index, 'previous page')).toEqual(['take_screenshot', 'navigate', 'create_invoice']);
  });

  it("a match's score is its words' (BM25), 0 for one found by meaning alone, the same whatever was searched before", () => {
    const scores = (query: string): [string, boolean][] => index.search(query, { limit: 3 }).map((m) => [m.exposedName, m.score > 0]);
    const first = scores('previous page');
    expect(first).toEqual([
      ['take_screenshot', true],
      ['navigate', false],
      ['create_invoice', false],
    ]);
    expect(index.search('navigate', { limit: 1 })[0]!.score).toBeGreaterThan(0);
    expect(scores('capture an image of the site')[0]).toEqual(['take_screenshot', false]);
    expect(scores('previous page')).toEqual(first);
  });

  it('an exact name still ranks first, and the filter and limit hold for what meaning finds', () => {
    expect(index.search('navigate', { limit: 1 }).map((m) => [m.exposedName, m.match])).toEqual([['navigate', 'name']]);
    expect(
      index.search('capture an image of the site', { limit: 1, filter: (n) => n !== 'take_screenshot' }).map((m) => m.exposedName),
    ).toEqual(['navigate']);
  });

  it('a query none of whose words the table knows finds nothing', () => {
    expect(names(index, 'zyzzyva')).toEqual([]);
  });

  it("a file name's own words are not taken by meaning", () => {
    expect(names(index, 'capture image')[0]).toBe('take_screenshot');
    expect(names(index, 'capture.image')).toEqual([]);
  });
});

describe('ToolIndex query understanding (issue 30)', () => {
  const tools = [
    tool('hub', 'create_pull_request', 'Create a new pull request in a GitHub repository'),
    tool('hub', 'list_commits', 'Get list of commits of a branch in a GitHub repository'),
    tool('hub', 'push_files', 'Push multiple files to a GitHub repository in a single commit'),
    tool('lab', 'create_merge_request', 'Create a new merge request in a GitLab project', { exposed: 'lab__create_merge_request' }),
    tool('lab', 'push_files', 'Push multiple files in a single commit to a GitLab project', { exposed: 'lab__push_files' }),
    tool('files', 'write_file', 'Create a new file or overwrite one'),
    tool('files', 'list_directory', 'List the files and directories in a path'),
    tool('web', 'navigate', 'Go to a URL'),
  ];
  const plain = { synonyms: false, wordVectors: false, sentenceVectors: false } as const;

  it('ranks the tools of a service the query names first, by the words its tools use ("GitHub"), and not without services', () => {
    const index = new ToolIndex(tools, plain);
    // GitLab has no list_commits: its tool about commits ranks first all the same.
    expect(names(index, 'list commits on gitlab')[0]).toBe('lab__push_files');
    expect(names(index, 'push my files to github')[0]).toBe('push_files');
    expect(index.serviceWords()).toEqual(expect.arrayContaining([['github', ['hub']]]));
    expect(names(new ToolIndex(tools, { ...plain, services: false }), 'list commits on gitlab')[0]).toBe('list_commits');
  });

  it('a service named ranks its tools first, then the rest of the catalog, within the limit', () => {
    const found = names(new ToolIndex(tools, plain), 'commit to github', 8);
    expect(found.slice(0, 3).sort()).toEqual(['create_pull_request', 'list_commits', 'push_files']);
    expect(found.slice(3)).toContain('lab__push_files');
  });

  it('takes developer shorthand in the tools\' words: "PR" is a pull request, "folder" a directory', () => {
    const index = new ToolIndex(tools, { ...plain, services: false });
    expect(names(index, 'open a PR')[0]).toBe('create_pull_request');
    expect(names(index, "what's in this folder")[0]).toBe('list_directory');
    expect(names(new ToolIndex(tools, { ...plain, services: false, terms: false }), 'open a PR')).toEqual([]);
  });

  it('takes "to-do" as one word, and everyday words as the tools\' ("row" is a record)', () => {
    const own = [tool('planner', 'create_tasks', 'Create tasks.'), tool('base', 'create_record', 'Create a record in a table.')];
    const index = new ToolIndex(own, { ...plain, services: false });
    expect(names(index, 'my to-do list')).toEqual(['create_tasks']);
    expect(names(index, 'add a row')).toEqual(['create_record']);
    expect(names(new ToolIndex(own, { ...plain, services: false, terms: false }), 'my to-do list')).toEqual([]);
  });

  it('takes a web address as a URL, not as a file name', () => {
    expect(names(new ToolIndex(tools, plain), 'open https://example.com/blog')[0]).toBe('navigate');
  });
});
