import { describe, expect, it } from 'vitest';
import { explainSandboxDenial } from './sandbox-denial.js';

const writable = ['/work/proj', '/tmp'];

describe('explainSandboxDenial', () => {
  it('names the folder of a file the sandbox would not let the server open for writing, and the setting', () => {
    expect(
      explainSandboxDenial("Error: EROFS: read-only file system, open '/home/ann/.local/share/memory.jsonl'", writable, 'memory'),
    ).toBe(
      'the sandbox keeps /home/ann/.local/share read-only for memory: to let it write there, add sandbox_write = ["/home/ann/.local/share"] to its entry in settings.toml (blitz mcp add --sandbox-write /home/ann/.local/share), or set sandbox = false',
    );
  });

  it('names a folder it would not let the server make', () => {
    expect(explainSandboxDenial("EACCES: permission denied, mkdir '/opt/data'", writable, 's')).toContain(
      'the sandbox keeps /opt/data read-only for s',
    );
  });

  it('says nothing for a refusal inside a writable path, or for other errors', () => {
    expect(explainSandboxDenial("EACCES: permission denied, open '/work/proj/locked.txt'", writable, 's')).toBeUndefined();
    expect(explainSandboxDenial("EROFS: read-only file system, open '/tmp/x'", writable, 's')).toBeUndefined();
    expect(explainSandboxDenial("ENOENT: no such file or directory, open '/etc/nope'", writable, 's')).toBeUndefined();
    expect(explainSandboxDenial('could not write: disk full', writable, 's')).toBeUndefined();
  });

  it('does not take /tmpfoo for /tmp', () => {
    expect(explainSandboxDenial("EROFS: read-only file system, mkdir '/tmpfoo'", writable, 's')).toContain('/tmpfoo read-only');
  });
});
