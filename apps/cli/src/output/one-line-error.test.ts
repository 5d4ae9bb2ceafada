import { describe, expect, it } from 'vitest';
import { oneLineError } from './one-line-error.js';

describe('oneLineError', () => {
  it('keeps a one-line error as it is', () => {
    expect(oneLineError('MCP server x did not answer initialize within 30s')).toBe('MCP server x did not answer initialize within 30s');
  });

  it('ends an exit error with the last non-empty stderr line instead of "its stderr ends with:"', () => {
    const message =
      "MCP server mem exited with code 1; its stderr ends with:\nStarting...\nError: EROFS: read-only file system, open '/root/m.jsonl'\n\n  ";
    expect(oneLineError(message)).toBe(
      "MCP server mem exited with code 1; its stderr ends with: Error: EROFS: read-only file system, open '/root/m.jsonl'",
    );
  });

  it("picks a Node crash's Error line over the version banner that ends its stderr", () => {
    const message =
      "MCP server gone exited with code 1; its stderr ends with:\nnode:internal/modules/cjs/loader:1210\n  throw err;\n  ^\nError: Cannot find module '/srv/missing.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n}\nNode.js v20.20.2";
    expect(oneLineError(message)).toBe(
      "MCP server gone exited with code 1; its stderr ends with: Error: Cannot find module '/srv/missing.js'",
    );
  });

  it('is bounded', () => {
    const line = oneLineError(`MCP server x exited with code 1; its stderr ends with:\n${'y'.repeat(1000)}`, 80);
    expect(line).toHaveLength(80);
    expect(line.endsWith('…')).toBe(true);
    expect(line).not.toContain('\n');
  });
});
