import tseslint from 'typescript-eslint';

const sdk = { group: ['@modelcontextprotocol/*'], message: 'Only @blitz/core and the daemon speak MCP.' };
const core = { group: ['@blitz/core', '@blitz/core/*'], message: 'The tray and the client speak only the control API.' };
const apps = {
  group: ['@blitz/cli', '@blitz/daemon', '@blitz/settings', '@blitz/tray', '**/apps/**'],
  message: 'Packages never import apps.',
};
const client = {
  group: ['@blitz/client', '@blitz/client/*', '**/packages/client/**'],
  message: 'Core imports no API client: what both need lives in a leaf package (@blitz/clock, @blitz/process, @blitz/server-state).',
};
const workspaces = { group: ['@blitz/*', '**/packages/**', '**/apps/**'], message: 'A leaf package imports no other workspace.' };
// The arrows (docs/architecture.md): apps → packages; core and clients never see the API client;
// the leaves (clock, process, server-state) import no workspace at all.

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test/fixtures/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'CallExpression[callee.property.name="only"]', message: 'No focused tests.' }],
    },
  },
  {
    files: ['packages/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [apps] }] },
  },
  {
    files: ['packages/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [apps, client] }] },
  },
  {
    files: ['packages/clock/**/*.ts', 'packages/process/**/*.ts', 'packages/server-state/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [workspaces, sdk] }] },
  },
  {
    files: ['packages/autostart/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [apps, core, client, sdk] }] },
  },
  {
    files: ['packages/clients/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [apps, client, sdk] }] },
  },
  {
    files: ['packages/client/**/*.ts', 'apps/tray/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [apps, core, sdk] }] },
  },
  {
    // The settings page runs in a browser: only the client's plain-data subpaths, never its Node half.
    files: ['apps/settings/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@blitz/client', message: 'Import @blitz/client/api-types (browser-safe) instead.' }],
          patterns: [apps, core, sdk],
        },
      ],
    },
  },
);
