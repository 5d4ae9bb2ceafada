import { describe, expect, it } from 'vitest';
import { JsonLocator } from './json-locator.js';

describe('JsonLocator', () => {
  const text = `{
  "note": "mcpServers \\"gh\\" is below",
  "mcpServers": {
    "gh": {
      "command": "gh-mcp",
      "args": ["--x", {"deep": 1}],
      "tool_exposure": { "pr_*": "hidden",
        "issue": "deferred" }
    },
    "a\\u00e9": { "url": "https://x" }
  },
  "mcpServers2": { "gh": {} }
}`;
  const at = new JsonLocator(text);

  it('finds each key by its path, on the line it is written', () => {
    expect(at.line(['mcpServers'])).toBe(3);
    expect(at.line(['mcpServers', 'gh'])).toBe(4);
    expect(at.line(['mcpServers', 'gh', 'command'])).toBe(5);
    expect(at.line(['mcpServers', 'gh', 'tool_exposure', 'pr_*'])).toBe(7);
    expect(at.line(['mcpServers', 'gh', 'tool_exposure', 'issue'])).toBe(8);
    expect(at.line(['mcpServers2', 'gh'])).toBe(12);
  });

  it('keys inside arrays by index, escaped keys by their value; a string value is no key', () => {
    expect(at.line(['mcpServers', 'gh', 'args', 1, 'deep'])).toBe(6);
    expect(at.line(['mcpServers', 'aé'])).toBe(10);
    expect(at.line(['note'])).toBe(2);
    expect(at.line(['mcpServers', 'gh', 'tools'])).toBeUndefined();
  });

  it('a key written twice is found where JSON.parse takes it from: the last', () => {
    expect(new JsonLocator('{"a": 1,\n"a": 2}').line(['a'])).toBe(2);
  });
});
