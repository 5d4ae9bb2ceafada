import type { RefConverter } from './map-server.js';

const EDITOR_VARIABLES = /\$\{(workspaceFolder|workspaceFolderBasename|workspaceRoot|userHome|pathSeparator|cwd|\/)\}/g;
const INPUT = /\$\{input:([^}]+)\}/g;

/**
 * VS Code and Cursor references: `${env:VAR}` is Blitz's syntax too; an `${input:id}` prompt
 * becomes the variable `${ID}` (Blitz cannot ask), and editor variables stay text — each named in a warning.
 * A warning never reads `field: value`: the CLI's redactor masks that shape whole for a secret-like
 * field (headers.Authorization, env.API_KEY), and the user would see only `***`.
 */
export function editorRefs(client: string): RefConverter {
  return (text, field, warn) => {
    let out = text.replace(INPUT, (whole, id: string) => {
      const variable = id.toUpperCase().replace(/[^A-Z0-9_]/g, '_').replace(/^(?=\d)/, '_');
      warn(`${field} holds ${whole}, a ${client} input prompt, which Blitz cannot show; imported as \${${variable}}: set ${variable} in the daemon's environment`);
      return `\${${variable}}`;
    });
    out = out.replace(EDITOR_VARIABLES, (whole) => {
      warn(`${field} holds ${whole}, a ${client} variable that Blitz does not expand; kept as text`);
      return whole;
    });
    return out;
  };
}
