import { describe, expect, it } from 'vitest';
import { BlitzError } from '../errors/blitz-error.js';
import { causeLine, explainCause } from './explain-cause.js';
import { causeOf, type ServerCause } from './server-cause.js';

describe("explainCause: why, in a person's words, and what to do", () => {
  it.each<[ServerCause, string, string | undefined]>([
    [
      { code: 'COMMAND_NOT_FOUND', command: 'nonexistent-mcp-server' },
      'nonexistent-mcp-server is not on PATH',
      'install it, or give its full path',
    ],
    [
      { code: 'COMMAND_NOT_FOUND', command: '/opt/srv/server' },
      '/opt/srv/server is not an executable file',
      'check the path, or install the server there',
    ],
    [{ code: 'SANDBOX_UNAVAILABLE' }, 'the sandbox (bubblewrap) cannot run here', 'install bubblewrap, or set sandbox = false for docs'],
    [
      { code: 'SANDBOX_DENIED', folder: '/data' },
      'the sandbox keeps /data read-only',
      'to let it write there, add sandbox_write = ["/data"] to its entry in settings.toml (blitz mcp add --sandbox-write /data), or set sandbox = false',
    ],
    [
      { code: 'CANNOT_START', detail: 'environment variable TOKEN is not set' },
      'it cannot start: environment variable TOKEN is not set',
      "set what it needs in the daemon's environment, then run blitz daemon restart",
    ],
    [
      { code: 'EXITED', how: 'exited with code 1', line: "Error: Cannot find module '/srv/x.js'" },
      "it exited with code 1: Error: Cannot find module '/srv/x.js'",
      'see its output: blitz mcp get docs',
    ],
    [{ code: 'EXITED', how: 'exited on signal SIGKILL' }, 'it exited on signal SIGKILL', 'see its output: blitz mcp get docs'],
    [
      { code: 'START_TIMEOUT', phase: 'initialize', after: '30s' },
      'it did not answer initialize within 30s',
      'check that it is an MCP server; if it is slow to start, raise startup_timeout_seconds',
    ],
    [{ code: 'CALL_TIMEOUT', after: '1m' }, 'it did not answer within 1m', 'if its calls take long, raise timeout_seconds'],
    [
      { code: 'CONNECTION_REFUSED', where: '127.0.0.1:9' },
      'connection refused at 127.0.0.1:9',
      'is the server running? Start it, or fix its url',
    ],
    [
      { code: 'HOST_NOT_FOUND', host: 'mcp.example.invalid' },
      'no host named mcp.example.invalid was found',
      'check its url, and that this machine is online',
    ],
    [
      { code: 'HTTP_STATUS', status: 404, where: 'http://127.0.0.1:3000/mpc' },
      'http://127.0.0.1:3000/mpc answered HTTP 404',
      'check its url: no MCP endpoint answers there',
    ],
    [
      { code: 'HTTP_STATUS', status: 503, where: 'https://x.test/mcp' },
      'https://x.test/mcp answered HTTP 503',
      'the server has a problem of its own; try again later',
    ],
    [{ code: 'NEEDS_SIGN_IN' }, 'it needs you to sign in', 'run blitz mcp login docs'],
    [
      { code: 'NEEDS_MORE_ACCESS', scope: 'repo' },
      'your sign-in lacks access it needs (scope "repo")',
      'run blitz mcp login docs to ask for it',
    ],
    [{ code: 'CONNECTION_CLOSED' }, 'it closed the connection', 'Blitz connects again on the next call'],
    [{ code: 'OTHER', message: 'MCP server docs failed to start: boom\nmore' }, 'failed to start: boom', undefined],
  ])('%j', (cause, text, remedy) => {
    const why = explainCause('docs', cause);
    expect(why).toEqual({ code: cause.code, cause: text, ...(remedy === undefined ? {} : { remedy }) });
    expect(why.cause).not.toContain('MCP server docs');
  });

  it('reads as one line: cause; remedy', () => {
    expect(causeLine(explainCause('x', { code: 'COMMAND_NOT_FOUND', command: 'npx' }))).toBe(
      'npx is not on PATH; install it, or give its full path',
    );
    expect(causeLine(explainCause('x', { code: 'OTHER', message: 'odd' }))).toBe('odd');
  });
});

describe('causeOf: the facts of a coded error', () => {
  it('takes the facts an error carries', () => {
    const error = new BlitzError('SERVER_EXITED', 'MCP server s exited with code 1', {
      serverCause: { code: 'EXITED', how: 'exited with code 1' },
    });
    expect(causeOf(error)).toEqual({ code: 'EXITED', how: 'exited with code 1' });
  });

  it("finds a refused connection's address in fetch's causes, an AggregateError's too", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '127.0.0.1',
      port: 9,
    });
    const fetchFailed = new TypeError('fetch failed', { cause: refused });
    expect(causeOf(new BlitzError('SERVER_UNAVAILABLE', 'x', { cause: fetchFailed }))).toEqual({
      code: 'CONNECTION_REFUSED',
      where: '127.0.0.1:9',
    });
    const v6 = Object.assign(new Error('connect ECONNREFUSED ::1:9'), { code: 'ECONNREFUSED', address: '::1', port: 9 });
    const both = Object.assign(new AggregateError([v6, refused]), { code: 'ECONNREFUSED' });
    expect(causeOf(new BlitzError('SERVER_UNAVAILABLE', 'x', { cause: new TypeError('fetch failed', { cause: both }) }))).toEqual({
      code: 'CONNECTION_REFUSED',
      where: '[::1]:9',
    });
  });

  it("names a spawn's missing command, an unknown host, and codes with no facts", () => {
    const enoent = Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT', syscall: 'spawn nope', path: 'nope' });
    expect(causeOf(new BlitzError('SERVER_UNAVAILABLE', 'could not start nope', { cause: enoent }))).toEqual({
      code: 'COMMAND_NOT_FOUND',
      command: 'nope',
    });
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND mcp.invalid'), { code: 'ENOTFOUND', hostname: 'mcp.invalid' });
    expect(causeOf(new BlitzError('SERVER_UNAVAILABLE', 'x', { cause: dns }))).toEqual({ code: 'HOST_NOT_FOUND', host: 'mcp.invalid' });
    expect(causeOf(new BlitzError('NEEDS_SIGN_IN', 'x'))).toEqual({ code: 'NEEDS_SIGN_IN' });
    expect(causeOf(new BlitzError('FAILED_PRECONDITION', 'x', { reason: 'SANDBOX_UNAVAILABLE' }))).toEqual({ code: 'SANDBOX_UNAVAILABLE' });
    expect(causeOf(new BlitzError('INTERNAL', 'what happened'))).toEqual({ code: 'OTHER', message: 'what happened' });
  });
});
