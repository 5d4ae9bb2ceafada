import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crashLine } from './crash-line.js';

const dir = mkdtempSync(path.join(tmpdir(), 'blitz-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The stderr of a real process that crashes, as its lines. */
function stderrOf(command: string, args: string[]): string[] {
  const run = spawnSync(command, args, { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  if (run.error) throw run.error;
  expect(run.status).not.toBe(0);
  return run.stderr.split(/\r?\n/);
}

const python = spawnSync('python3', ['--version']).status === 0;

describe('the line that says why a server crashed', () => {
  it('is the Error line of a real Node crash, not the version banner after it', () => {
    const missing = path.join(dir, 'missing-server.js');
    const lines = stderrOf(process.execPath, [missing]);
    expect(lines.filter(Boolean).at(-1)).toMatch(/^Node\.js v\d/);
    expect(crashLine(lines)).toBe(`Error: Cannot find module '${missing}'`);
  });

  it('is the thrown TypeError of a real Node ES module, not its source line or caret', () => {
    writeFileSync(path.join(dir, 'throws.mjs'), "console.error('starting');\nthrow new TypeError('config.port is not a number');\n");
    expect(crashLine(stderrOf(process.execPath, ['throws.mjs']))).toBe('TypeError: config.port is not a number');
  });

  it("is Node's coded error, its code kept", () => {
    writeFileSync(path.join(dir, 'imports.mjs'), "import 'no-such-mcp-package';\n");
    expect(crashLine(stderrOf(process.execPath, ['imports.mjs']))).toMatch(
      /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find package 'no-such-mcp-package'/,
    );
  });

  // Skipped only on a machine without python3.
  it.skipIf(!python)('is the exception after a real Python traceback', () => {
    writeFileSync(
      path.join(dir, 'server.py'),
      "import sys\nprint('starting', file=sys.stderr)\ndef load():\n    raise ValueError('bad config: port must be a number')\nload()\n",
    );
    expect(crashLine(stderrOf('python3', ['server.py']))).toBe('ValueError: bad config: port must be a number');
    expect(crashLine(stderrOf('python3', ['-c', 'import no_such_mcp_lib']))).toBe("ModuleNotFoundError: No module named 'no_such_mcp_lib'");
  });

  it.skipIf(!python)('is the last exception of a chained Python traceback', () => {
    writeFileSync(
      path.join(dir, 'chained.py'),
      "try:\n    open('/nonexistent/settings.json')\nexcept OSError as e:\n    raise RuntimeError('cannot read settings') from e\n",
    );
    expect(crashLine(stderrOf('python3', ['chained.py']))).toBe('RuntimeError: cannot read settings');
  });

  // No Go toolchain on these machines: recorded Go crash output stands in (crash-fixtures/README.md).
  it("is a Go panic's first line, not its goroutine trace or exit status", () => {
    const fixture = (name: string) => readFileSync(new URL(`./crash-fixtures/${name}`, import.meta.url), 'utf8').split('\n');
    expect(crashLine(fixture('go-panic.txt'))).toBe('panic: runtime error: index out of range [3] with length 0');
    expect(crashLine(fixture('go-fatal.txt'))).toBe('fatal error: concurrent map writes');
  });

  it("is a tool's error: line, else the last line that is no banner or frame", () => {
    expect(crashLine(['fatal: not a git repository (or any of the parent directories): .git'])).toBe(
      'fatal: not a git repository (or any of the parent directories): .git',
    );
    expect(crashLine(['starting', 'error: unknown option --stdio', 'usage: srv [--port N]'])).toBe('error: unknown option --stdio');
    expect(crashLine(['bwrap: execvp nonexistent-mcp-server: No such file or directory'])).toBe(
      'bwrap: execvp nonexistent-mcp-server: No such file or directory',
    );
    expect(crashLine(['listening', 'database not reachable', '', 'Node.js v20.20.2'])).toBe('database not reachable');
    expect(crashLine([])).toBeUndefined();
  });
});
