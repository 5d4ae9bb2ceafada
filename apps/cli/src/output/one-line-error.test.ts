import { describe, expect, it } from 'vitest';
import { oneLineError } from './one-line-error.js';

describe('oneLineError', () => {
  it('keeps a one-line error as it is', () => {
    expect(oneLineError('MCP server x did not answer initialize within 30s')).toBe('MCP server x did not answer initialize within 30s');
  });

  it('ends an exit error with the last non-empty stderr line instead of "its stderr ends with:"', () => {
    const message = 'MCP server mem exited with code 1; its stderr ends with:\nStarting...\nError: EROFS: read-only file system, open \'/root/m.jsonl\'\n\n  ';
    expect(oneLineError(message)).toBe("MCP server mem exited with code 1; its stderr ends with: Error: EROFS: read-only file system, open '/root/m.jsonl'");
  });

  it('is bounded', () => {
    const line = oneLineError(`MCP server x exited with code 1; its stderr ends with:\n${'y'.repeat(1000)}`, 80);
    expect(line).toHaveLength(80);
    expect(line.endsWith('…')).toBe(true);
    expect(line).not.toContain('\n');
  });
});
