import { describe, expect, it } from 'vitest';
import { parameterSignature, searchSummaries, toolSummary } from './tool-summary.js';

const schema = {
  type: 'object' as const,
  properties: {
    page: { type: 'integer' },
    owner: { type: 'string', description: 'Repository owner' },
    state: { type: 'string', enum: ['open', 'closed'] },
    labels: { type: 'array', items: { type: 'string' } },
    filter: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  required: ['owner'],
};

describe('tool summaries (search_tools answers)', () => {
  it('give the parameters as a signature, the required first: names, types, enums, arrays, unions', () => {
    expect(parameterSignature(schema)).toBe(
      'owner: string, page?: integer, state?: "open" | "closed", labels?: string[], filter?: string | null',
    );
    expect(parameterSignature({ type: 'object' })).toBe('');
  });

  it("give a tool's name, server and first sentence, never its whole schema", () => {
    const entry = {
      exposedName: 'gh__list_issues',
      server: 'github',
      tool: { name: 'gh__list_issues', description: 'List issues in a repository. Use filters to narrow them.', inputSchema: schema },
    };
    expect(toolSummary(entry)).toEqual({
      name: 'gh__list_issues',
      server: 'github',
      description: 'List issues in a repository.',
      parameters: 'owner: string, page?: integer, state?: "open" | "closed", labels?: string[], filter?: string | null',
    });
    const text = searchSummaries([entry]);
    expect(text).toBe(
      'gh__list_issues (github): List issues in a repository.\n  (owner: string, page?: integer, state?: "open" | "closed", labels?: string[], filter?: string | null)',
    );
    expect(text).not.toContain('Repository owner');
  });
});
