import { describe, expect, it } from 'vitest';
import { diffDefinitions } from './definition-diff.js';
import { canonicalJson, definitionFingerprint, toolDefinition } from './tool-definition.js';

describe('tool definitions', () => {
  it('pins name, title, description, schemas and annotations, not _meta', () => {
    const tool = {
      name: 't',
      title: 'T',
      description: 'd',
      inputSchema: { type: 'object' as const },
      outputSchema: { type: 'object' as const },
      annotations: { readOnlyHint: true },
      _meta: { x: 1 },
    };
    expect(toolDefinition(tool)).toEqual({
      name: 't',
      title: 'T',
      description: 'd',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    });
    expect(definitionFingerprint(toolDefinition(tool))).toBe(definitionFingerprint(toolDefinition({ ...tool, _meta: { x: 2 } })));
    expect(definitionFingerprint(toolDefinition(tool))).not.toBe(
      definitionFingerprint(toolDefinition({ ...tool, annotations: { readOnlyHint: false } })),
    );
  });

  it('canonical JSON sorts keys and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: 2 }] })).toBe('{"a":[{"c":2}],"b":1}');
  });

  it('diffs down into objects, whole for arrays and values', () => {
    const before = {
      name: 't',
      description: 'old',
      inputSchema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
    };
    const after = {
      name: 't',
      description: 'new',
      inputSchema: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' }, b: { type: 'string' } } },
      annotations: { destructiveHint: true },
    };
    expect(diffDefinitions(before, after)).toEqual([
      { field: 'description', before: 'old', after: 'new' },
      { field: 'inputSchema.properties.a.type', before: 'string', after: 'number' },
      { field: 'inputSchema.properties.b', after: { type: 'string' } },
      { field: 'inputSchema.required', before: ['a'], after: ['a', 'b'] },
      { field: 'annotations', after: { destructiveHint: true } },
    ]);
  });
});
