import tseslint from 'typescript-eslint';
import { blitzPlugin } from './lint/plugin.js';

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
const paths = {
  group: ['**/packages/**', '**/apps/**'],
  message: 'Import another workspace by its name (@blitz/…), never by a path into it.',
};
const appPaths = {
  regex: '^(\\.\\./)+(cli|daemon|settings|tray)/(src|dist)(/|$)',
  message: 'Import another workspace by its name (@blitz/…), never by a path into it.',
};
const daemonApps = {
  group: [
    '@blitz/cli',
    '@blitz/cli/*',
    '@blitz/daemon',
    '@blitz/daemon/*',
    '@blitz/tray',
    '@blitz/tray/*',
    '@blitz/settings',
    '@blitz/settings/*',
  ],
  message: "The daemon imports no app, itself included by name (it finds the settings page's built files by path, not by import).",
};
const daemonPackages = {
  group: ['@blitz/autostart', '@blitz/autostart/*'],
  message:
    'Start at login belongs to the CLI and the tray, not the daemon (it may import @blitz/clients: the settings page imports and connects clients through it).',
};
const cliApps = {
  regex: '^@blitz/(daemon(?!/entry$)(/|$)|tray/|settings(/|$))',
  message: 'The CLI imports two app entry points only: @blitz/daemon/entry and @blitz/tray.',
};
// The arrows (docs/architecture.md): apps → packages; core and clients never see the API client;
// the leaves (clock, process, server-state) import no workspace at all; the daemon imports no
// other app, and the CLI only the daemon's entry and the tray.

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
    // No import cycles, between files or between sibling folders of a package (lint/, issue 27.4).
    files: ['**/*.{ts,tsx,mts,cts}'],
    plugins: { blitz: blitzPlugin },
    rules: { 'blitz/no-import-cycle': 'error', 'blitz/no-folder-cycle': 'error' },
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
    files: ['apps/daemon/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [paths, appPaths, daemonApps, daemonPackages] }] },
  },
  {
    files: ['apps/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [paths, appPaths, cliApps] }] },
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
