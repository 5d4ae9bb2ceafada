import tseslint from 'typescript-eslint';

const sdk = { group: ['@modelcontextprotocol/*'], message: 'Only @blitz/core and the daemon speak MCP.' };
const core = { group: ['@blitz/core', '@blitz/core/*'], message: 'The tray and the client speak only the control API.' };
const apps = { group: ['@blitz/cli', '@blitz/daemon', '@blitz/tray', '**/apps/**'], message: 'Packages never import apps.' };

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
    files: ['packages/clients/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [apps, sdk] }] },
  },
  {
    files: ['packages/client/**/*.ts', 'apps/tray/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [apps, core, sdk] }] },
  },
  {
    // The settings page runs in a browser: only the client's plain-data subpaths, never its Node half.
    files: ['apps/settings/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: '@blitz/client', message: 'Import @blitz/client/api-types (browser-safe) instead.' }], patterns: [apps, core, sdk] }] },
  },
);
