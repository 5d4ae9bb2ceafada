import type { ClientSpec } from '../client-spec.js';
import { SkipServer } from '../fields.js';
import { withEnv } from '../launch-fields.js';
import { keepRefs, convertRefs, mapping, readStdio } from '../map-server.js';
import { join } from '../where.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Codex's `config.toml` (`$CODEX_HOME`, else `~/.codex`): one `[mcp_servers.NAME]` table a
 * server. Codex reads secrets from variables by name (`bearer_token_env_var`,
 * `env_http_headers`, `env_vars`); in Blitz those become `${VAR}` references.
 */
export const codex: ClientSpec = {
  id: 'codex',
  title: 'Codex',
  clientInfoName: 'codex-mcp-client',
  format: 'toml',
  serversKey: ['mcp_servers'],
  userFiles: (where) => [join(where, where.env.CODEX_HOME || join(where, where.home, '.codex'), 'config.toml')],
  projectFiles: ['.codex/config.toml'],
  fromClient: (name, raw) =>
    mapping(name, raw, (fields, entry, warn) => {
      if (fields.has('command') && fields.has('url'))
        throw new SkipServer('has both command and url; a server is either a command (stdio) or a URL (HTTP)');
      if (fields.has('command')) {
        readStdio(fields, entry);
        const passed = fields.strings('env_vars');
        for (const variable of passed ?? []) {
          if (!ENV_NAME.test(variable)) throw new SkipServer(`env_vars: ${JSON.stringify(variable)} is not a variable name`);
          entry.env = { ...(entry.env as Record<string, string> | undefined), [variable]: `\${${variable}}` };
        }
      } else if (fields.has('url')) {
        entry.url = fields.string('url')!;
        const headers: Record<string, string> = { ...fields.stringMap('http_headers') };
        for (const [header, variable] of Object.entries(fields.stringMap('env_http_headers') ?? {})) {
          if (!ENV_NAME.test(variable))
            throw new SkipServer(`env_http_headers.${header}: ${JSON.stringify(variable)} is not a variable name`);
          headers[header] = `\${${variable}}`;
        }
        const bearer = fields.string('bearer_token_env_var');
        if (bearer !== undefined) {
          if (!ENV_NAME.test(bearer)) throw new SkipServer(`bearer_token_env_var: ${JSON.stringify(bearer)} is not a variable name`);
          headers.Authorization = `Bearer \${${bearer}}`;
        }
        if (Object.keys(headers).length > 0) entry.headers = headers;
      } else {
        throw new SkipServer('has neither a command nor a url');
      }
      const tools = fields.strings('enabled_tools');
      if (tools !== undefined) entry.tools = tools;
      const startup = fields.number('startup_timeout_sec');
      const startupMs = fields.number('startup_timeout_ms');
      if (startup !== undefined) entry.startup_timeout_seconds = startup;
      else if (startupMs !== undefined) entry.startup_timeout_seconds = Math.max(1, Math.ceil(startupMs / 1000));
      const timeout = fields.number('tool_timeout_sec');
      if (timeout !== undefined) entry.timeout_seconds = timeout;
      if (fields.boolean('enabled') === false) entry.disabled = true;
      convertRefs(entry, keepRefs, warn);
    }),
  toClient: (launch) => ({ command: launch.command, args: [...launch.args], ...withEnv(launch) }),
};
