import { describe, expect, it } from 'vitest';
import { matchServer, type Searchable } from './server-filter.js';

const github: Searchable = {
  name: 'github',
  target: 'npx -y @modelcontextprotocol/server-github',
  state: 'connected',
  enabled: true,
  attention: false,
  tools: ['create_issue', 'list_issues', 'get_file_contents'],
};
const docs: Searchable = {
  name: 'docs',
  target: 'https://docs.example.com/mcp',
  state: 'needs sign-in',
  enabled: true,
  attention: true,
  tools: [],
};
const off: Searchable = { name: 'memory', target: 'npx server-memory', state: 'off', enabled: false, attention: false, tools: [] };

describe('matchServer', () => {
  it('matches every word in the name, command, URL, state or a tool name, case aside, and names the tools that matched', () => {
    expect(matchServer(github, '', 'all')).toEqual({ match: true, tools: [] });
    expect(matchServer(github, 'GitHub', 'all')).toEqual({ match: true, tools: [] });
    expect(matchServer(github, 'issue', 'all')).toEqual({ match: true, tools: ['create_issue', 'list_issues'] });
    expect(matchServer(github, 'git create', 'all')).toEqual({ match: true, tools: ['create_issue'] });
    expect(matchServer(github, 'issue nothing-like-it', 'all').match).toBe(false);
    expect(matchServer(docs, 'example.com', 'all').match).toBe(true);
    expect(matchServer(docs, 'sign-in', 'all').match).toBe(true);
  });

  it('filters by state: needing attention, on, off', () => {
    const all = [github, docs, off];
    const names = (filter: Parameters<typeof matchServer>[2]) => all.filter((s) => matchServer(s, '', filter).match).map((s) => s.name);
    expect(names('all')).toEqual(['github', 'docs', 'memory']);
    expect(names('attention')).toEqual(['docs']);
    expect(names('on')).toEqual(['github', 'docs']);
    expect(names('off')).toEqual(['memory']);
  });
});
