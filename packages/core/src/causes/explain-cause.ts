import { sandboxWriteRemedy } from './sandbox-write-remedy.js';
import type { CauseCode, ServerCause } from './server-cause.js';

/**
 * A cause in a person's words (issue 29.2): `cause` says why, without the server's name (the
 * surface shows it already: a title, a row), and `remedy` what to do, when anything helps.
 */
export interface Explanation {
  code: CauseCode;
  cause: string;
  remedy?: string;
}

/** The one vocabulary of causes and remedies: every surface shows these words, none makes its own. */
export function explainCause(server: string, cause: ServerCause): Explanation {
  const say = (text: string, remedy?: string): Explanation =>
    remedy === undefined ? { code: cause.code, cause: text } : { code: cause.code, cause: text, remedy };
  switch (cause.code) {
    case 'COMMAND_NOT_FOUND':
      return cause.command.includes('/') || cause.command.includes('\\')
        ? say(`${cause.command} is not an executable file`, 'check the path, or install the server there')
        : say(`${cause.command} is not on PATH`, 'install it, or give its full path');
    case 'SANDBOX_UNAVAILABLE':
      return say('the sandbox (bubblewrap) cannot run here', `install bubblewrap, or set sandbox = false for ${server}`);
    case 'SANDBOX_DENIED':
      return say(`the sandbox keeps ${cause.folder} read-only`, sandboxWriteRemedy(cause.folder));
    case 'CANNOT_START':
      return say(`it cannot start: ${cause.detail}`, "set what it needs in the daemon's environment, then run blitz daemon restart");
    case 'EXITED':
      return say(cause.line ? `it ${cause.how}: ${cause.line}` : `it ${cause.how}`, `see its output: blitz mcp get ${server}`);
    case 'START_TIMEOUT':
      return say(
        `it did not answer ${cause.phase} within ${cause.after}`,
        'check that it is an MCP server; if it is slow to start, raise startup_timeout_seconds',
      );
    case 'CALL_TIMEOUT':
      return say(`it did not answer within ${cause.after}`, 'if its calls take long, raise timeout_seconds');
    case 'CONNECTION_REFUSED':
      return say(`connection refused at ${cause.where}`, 'is the server running? Start it, or fix its url');
    case 'HOST_NOT_FOUND':
      return say(`no host named ${cause.host} was found`, 'check its url, and that this machine is online');
    case 'HTTP_STATUS':
      return say(`${cause.where} answered HTTP ${cause.status}`, httpRemedy(server, cause.status));
    case 'CONNECTION_CLOSED':
      return say('it closed the connection', 'Blitz connects again on the next call');
    case 'NEEDS_SIGN_IN':
      return say('it needs you to sign in', `run blitz mcp login ${server}`);
    case 'NEEDS_MORE_ACCESS':
      return say(
        `your sign-in lacks access it needs${cause.scope ? ` (scope "${cause.scope}")` : ''}`,
        `run blitz mcp login ${server} to ask for it`,
      );
    case 'OTHER':
      return say(ownWords(server, cause.message));
    default: {
      const _exhaustive: never = cause;
      return _exhaustive;
    }
  }
}

/** The explanation as one line: "cause; remedy". */
export function causeLine(explanation: Explanation): string {
  return explanation.remedy === undefined ? explanation.cause : `${explanation.cause}; ${explanation.remedy}`;
}

function httpRemedy(server: string, status: number): string {
  if (status === 404 || status === 405) return 'check its url: no MCP endpoint answers there';
  if (status === 403) return `check its headers, or sign in again: blitz mcp login ${server}`;
  if (status >= 500) return 'the server has a problem of its own; try again later';
  return 'check its url and headers';
}

/** An error's first line, without the "MCP server NAME" it starts with: the surface names the server. */
function ownWords(server: string, message: string): string {
  const first = message.split('\n', 1)[0]!.trim();
  const named = `MCP server ${server} `;
  return first.startsWith(named) ? first.slice(named.length) : first;
}
