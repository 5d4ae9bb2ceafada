import type { RefConverter } from './map-server.js';

const EDITOR_VARIABLES = /\$\{(workspaceFolder|workspaceFolderBasename|workspaceRoot|userHome|pathSeparator|cwd|\/)\}/g;
const INPUT = /\$\{input:([^}]+)\}/g;
/** The editor's workspace folder at the start of an argument, alone or before a path. */
const WORKSPACE_ARG = /^\$\{(workspaceFolder|workspaceRoot|cwd)\}(?=$|[\\/])/;

/**
 * VS Code and Cursor references: `${env:VAR}` is Blitz's syntax too; an `${input:id}` prompt
 * becomes the variable `${ID}` (Blitz cannot ask). Editor variables become what Blitz has for
 * them — the workspace folder at the start of an argument `.` (a server runs in its workspace),
 * the home `${HOME}` (`${USERPROFILE}` on Windows, where HOME is seldom set), the path separator
 * itself — and the others stay, each named in a warning:
 * Blitz would read them as environment variables, unset. A warning never reads `field: value`:
 * the CLI's redactor masks that shape whole for a secret-like field (headers.Authorization,
 * env.API_KEY), and the user would see only `***`.
 */
export function editorRefs(client: string, platform: NodeJS.Platform = process.platform): RefConverter {
  const home = platform === 'win32' ? '${USERPROFILE}' : '${HOME}';
  const separator = platform === 'win32' ? '\\' : '/';
  return (text, field, warn) => {
    let out = text.replace(INPUT, (whole, id: string) => {
      const variable = id
        .toUpperCase()
        .replace(/[^A-Z0-9_]/g, '_')
        .replace(/^(?=\d)/, '_');
      warn(
        `${field} holds ${whole}, a ${client} input prompt, which Blitz cannot show; imported as \${${variable}}: set ${variable} in the daemon's environment`,
      );
      return `\${${variable}}`;
    });
    if (field.startsWith('args[')) {
      out = out.replace(WORKSPACE_ARG, (whole) => {
        warn(`${field} holds ${whole}, a ${client} variable: imported as ".", the folder Blitz runs the server in (the workspace)`);
        return '.';
      });
    }
    out = out.replace(EDITOR_VARIABLES, (whole, name: string) => {
      const value = name === 'userHome' ? home : name === 'pathSeparator' || name === '/' ? separator : undefined;
      if (value !== undefined) {
        warn(`${field} holds ${whole}, a ${client} variable: imported as ${value}`);
        return value;
      }
      warn(
        `${field} holds ${whole}, a ${client} variable Blitz has no value for here: it would read it as an unset environment variable, so the server cannot start until you replace it`,
      );
      return whole;
    });
    return out;
  };
}
