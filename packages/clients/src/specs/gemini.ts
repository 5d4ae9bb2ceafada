import { isTable } from '@blitz/core';
import type { ClientSpec } from '../client-spec.js';
import { withEnv } from '../launch-fields.js';
import { keepRefs, mapJsonServer, type RefConverter } from '../map-server.js';
import { join } from '../where.js';

/** Gemini expands `$VAR` and `${VAR}` in env values; Blitz knows only the braced form. */
const geminiRefs: RefConverter = (text, field) =>
  field.startsWith('env.') || field.startsWith('headers.') ? text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, '${$1}') : text;

/**
 * Gemini CLI's `settings.json` (comments allowed): `httpUrl` (or `url` with `"type": "http"`)
 * is streamable HTTP, a bare `url` is SSE; `timeout` is in milliseconds.
 */
export const gemini: ClientSpec = {
  id: 'gemini',
  title: 'Gemini CLI',
  clientInfoName: 'gemini-cli-mcp-client',
  format: 'json',
  serversKey: ['mcpServers'],
  userFiles: (where) => [join(where, where.home, '.gemini', 'settings.json')],
  projectFiles: ['.gemini/settings.json'],
  fromClient: (name, raw) => {
    if (isTable(raw) && raw.url !== undefined && raw.httpUrl === undefined && raw.type !== 'http') {
      return { kind: 'skipped', reason: 'url: is an SSE server in Gemini CLI; Blitz speaks stdio and streamable HTTP (httpUrl), not SSE' };
    }
    return mapJsonServer(name, raw, {
      urlKeys: ['httpUrl', 'url'],
      types: { stdio: 'stdio', http: 'http', sse: 'sse' },
      refs: (text, field, warn) => keepRefs(geminiRefs(text, field, warn), field, warn),
      extra: (fields, entry, warn) => {
        const timeout = fields.number('timeout');
        if (timeout !== undefined) entry.timeout_seconds = Math.max(1, Math.ceil(timeout / 1000));
        const include = fields.strings('includeTools');
        if (include !== undefined) entry.tools = include;
        if (fields.boolean('trust') === true)
          warn('trust: not imported; Blitz asks before tool calls unless the server has auto_approve = true');
        fields.ignore('description');
      },
    });
  },
  toClient: (launch) => ({ command: launch.command, args: [...launch.args], ...withEnv(launch) }),
  rewritesWhileRunning: {
    command: {
      program: 'gemini',
      add: (name, launch) => [
        'mcp',
        'add',
        '--scope',
        'user',
        ...Object.entries(launch.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
        name,
        launch.command,
        ...launch.args,
      ],
      remove: (name) => ['mcp', 'remove', '--scope', 'user', name],
    },
  },
};
