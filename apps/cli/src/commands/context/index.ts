import path from 'node:path';
import type { Command } from 'commander';
import type { ClientContext, ContextCost, ContextReceipt } from '@blitz/client';
import { clientById } from '@blitz/clients';
import { formatBytes, KNOWN_CLIENTS } from '@blitz/core';
import { CliError, type CliContext } from '../../context.js';
import { connectToDaemon } from '../../daemon-connection.js';
import { renderTable } from '../../output/table.js';

export function registerContext(program: Command, ctx: CliContext): void {
  program
    .command('context')
    .description("what each client's tool list costs in its context: tools, bytes and tokens, by server, and what deferral saves")
    .option(
      '--client <name>',
      'one client, server by server: its clientInfo name (codex-mcp-client), its id in blitz clients (codex) or its name (Codex)',
    )
    .option('--agent <name>', 'the agent whose tools to count (default: main)')
    .option('--workspace <dir>', 'the workspace (default: the current directory)')
    .option('--json', 'print JSON')
    .action(async (opts: { client?: string; agent?: string; workspace?: string; json?: boolean }) => {
      const daemon = connectToDaemon(ctx);
      if (!daemon) throw new CliError('the Blitz daemon is not running; start it: blitz daemon start');
      const workspace = await daemon.client.openWorkspace(path.resolve(ctx.cwd, opts.workspace ?? '.'));
      const client = opts.client === undefined ? undefined : clientName(opts.client);
      const receipt = await daemon.client.context(workspace.id, {
        ...(client === undefined ? {} : { client }),
        ...(opts.agent === undefined ? {} : { agent: opts.agent }),
      });
      if (opts.json) return ctx.out(JSON.stringify(receipt, null, 2));
      ctx.out(client === undefined ? describeClients(receipt) : describeClient(receipt, receipt.clients[0]!));
    });
}

/** A client as given: its `clientInfo.name`, its id in `blitz clients` (`gemini`), or the name people call it (`Codex`, `vs code`). */
export function clientName(given: string): string {
  const wanted = given.trim().toLowerCase();
  const spec = clientById(wanted);
  if (spec !== undefined) return spec.clientInfoName;
  const known = Object.entries(KNOWN_CLIENTS).find(([name, c]) => name.toLowerCase() === wanted || c.label.toLowerCase() === wanted);
  return known?.[0] ?? given;
}

function heading(receipt: ContextReceipt): string {
  const agent = receipt.agent === 'main' ? '' : ` (agent ${receipt.agent})`;
  return `Tool lists in ${receipt.workspace}${agent}; tokens counted with ${receipt.tokenizer}.`;
}

/** Every client in a table, then the whole catalog's cost. */
export function describeClients(receipt: ContextReceipt): string {
  const rows = receipt.clients.map((c) => [
    c.label,
    c.surface,
    String(c.listed.tools),
    formatBytes(c.listed.bytes),
    count(c.listed.tokens),
    savedText(c),
  ]);
  const every = receipt.clients[0]!.everyTool;
  return [
    heading(receipt),
    '',
    renderTable(['CLIENT', 'SURFACE', 'TOOLS', 'BYTES', 'TOKENS', 'SAVED'], rows),
    '',
    `With every tool listed: ${costText(every)}.`,
    'One client, server by server: blitz context --client NAME',
  ].join('\n');
}

/** One client, server by server. */
export function describeClient(receipt: ContextReceipt, c: ClientContext): string {
  const name = c.client === undefined || c.client === c.label ? c.label : `${c.label} (${c.client})`;
  const rows = c.servers.map((s) => [s.server, String(s.tools), String(s.deferred), formatBytes(s.bytes), count(s.tokens)]);
  const saving =
    c.saved.tokens > 0
      ? `; with every tool listed it would be ${costText(c.everyTool)}: search_tools saves ${count(c.saved.tokens)} tokens (${percent(c.saved.tokens, c.everyTool.tokens)})`
      : '';
  return [
    heading(receipt),
    '',
    `${name}: ${c.surface} (${c.because}).`,
    '',
    renderTable(['SERVER', 'LISTED', 'DEFERRED', 'BYTES', 'TOKENS'], rows),
    '',
    `Its tools/list: ${costText(c.listed)}${saving}.`,
  ].join('\n');
}

function costText(cost: ContextCost): string {
  return `${cost.tools} tools, ${formatBytes(cost.bytes)}, ${count(cost.tokens)} tokens`;
}

function savedText(c: ClientContext): string {
  return c.saved.tokens > 0 ? `${count(c.saved.tokens)} tokens (${percent(c.saved.tokens, c.everyTool.tokens)})` : '-';
}

const count = (n: number) => n.toLocaleString('en-US');
const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)} %`;
