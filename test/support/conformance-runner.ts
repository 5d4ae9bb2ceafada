import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The MCP conformance runner 0.2.0-alpha.12 (requirement sets 2025-11-25 and 2026-07-28, the RFC 9207
// iss client checks) on the Node 22 it needs for itself (it imports fs.globSync): both live in
// test/fixtures/node22-conformance, installed apart from the root by scripts/test-all.sh.
const PREFIX = fileURLToPath(new URL('../fixtures/node22-conformance/', import.meta.url));
export const CONFORMANCE_NODE = path.join(PREFIX, 'node_modules', '.bin', 'node');
export const CONFORMANCE_RUNNER = path.join(PREFIX, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** The runner's command line, or a clear error when its prefix was not installed. */
export function conformanceCommand(args: string[]): { command: string; args: string[] } {
  if (!fs.existsSync(CONFORMANCE_NODE) || !fs.existsSync(CONFORMANCE_RUNNER)) {
    throw new Error(`the conformance runner is not installed: run npm ci --prefix ${path.relative(process.cwd(), PREFIX) || PREFIX}`);
  }
  return { command: CONFORMANCE_NODE, args: [CONFORMANCE_RUNNER, ...args] };
}

export interface RunnerResult {
  code: number | null;
  output: string;
}

/**
 * Runs the conformance runner to its end (killed after `timeoutMs`), with only PATH and HOME from
 * our environment, and `env` (the runner passes its environment on to the client it runs).
 */
export function runConformance(
  args: string[],
  { cwd, timeoutMs, env = {} }: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<RunnerResult> {
  const { command, args: argv } = conformanceCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export interface Check {
  id: string;
  /** SUCCESS, FAILURE, WARNING, or INFO (a note: an allowed choice). */
  status: string;
  errorMessage?: string;
}

/** Each scenario's checks from a `server -o DIR` run (DIR/server-SCENARIO-TIMESTAMP/checks.json), by scenario. */
export function readServerChecks(outDir: string, scenarios: readonly string[]): Map<string, Check[]> {
  const run = new Map<string, Check[]>();
  for (const dir of fs.existsSync(outDir) ? fs.readdirSync(outDir) : []) {
    const scenario = scenarios.find((s) => dir.startsWith(`server-${s}-`) && /^\d{4}-/.test(dir.slice(`server-${s}-`.length)));
    if (scenario) run.set(scenario, JSON.parse(fs.readFileSync(path.join(outDir, dir, 'checks.json'), 'utf8')) as Check[]);
  }
  return run;
}

/** A scenario passes with a success, no failure and no warning. */
export const scenarioPassed = (checks: Check[] | undefined): boolean =>
  checks !== undefined && checks.some((c) => c.status === 'SUCCESS') && checks.every((c) => c.status === 'SUCCESS' || c.status === 'INFO');

/** What did not succeed, one check a line, for an assertion message. */
export const explainChecks = (checks: Check[] | undefined): string =>
  (checks ?? [{ id: '(no result)', status: 'MISSING' }])
    .filter((c) => c.status !== 'SUCCESS')
    .map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`)
    .join('\n');

/** The scenarios `server --requirements 2026-07-28` requires (0.2.0-alpha.12's requirements/2026-07-28.yaml). */
export const REQUIRED_2026: readonly string[] = [
  'server-stateless',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
  'server-sse-multiple-streams',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'sep-2164-resource-not-found',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
  'caching',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-basic-list-roots',
  'input-required-result-request-state',
  'input-required-result-multiple-input-requests',
  'input-required-result-multi-round',
  'input-required-result-missing-input-response',
  'input-required-result-non-tool-request',
  'input-required-result-result-type',
  'input-required-result-unsupported-methods',
  'input-required-result-tampered-state',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-validate-input',
];
