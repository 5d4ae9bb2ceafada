import path from 'node:path';
import type { Command } from 'commander';
import type { FieldChange, ToolReview } from '@blitz/client';
import { CliError, type CliContext } from '../../context.js';
import { connectToDaemon } from '../../daemon-connection.js';

/** A value of a field, on one line: a string as it is, anything else as JSON. */
const MAX_VALUE_CHARS = 2_000;

export function registerReview(mcp: Command, ctx: CliContext): void {
  mcp
    .command('review')
    .description("show how a server's tools held for review differ from their pinned definitions; --accept pins the new ones")
    .argument('<name>')
    .option('--accept', 'pin the definitions in review: the tools are offered again')
    .option('--tool <tool...>', 'with --accept: only these tools')
    .option('--workspace <dir>', "the workspace, for a project's server (default: the current directory)")
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { accept?: boolean; tool?: string[]; workspace?: string; json?: boolean }) => {
      const daemon = connectToDaemon(ctx);
      if (!daemon) throw new CliError('the Blitz daemon is not running; start it: blitz daemon start');
      const workspace = await daemon.client.openWorkspace(path.resolve(ctx.cwd, opts.workspace ?? '.'));
      const review = await daemon.client.serverReview(workspace.id, name);
      if (opts.accept) {
        const { accepted } = await daemon.client.acceptReview(workspace.id, name, opts.tool);
        if (opts.json) return ctx.out(JSON.stringify({ ...review, accepted }, null, 2));
        if (accepted.length === 0)
          return ctx.out(`MCP server "${name}" has no tools in review${opts.tool ? ` named ${opts.tool.join(', ')}` : ''}.`);
        return ctx.out(`Pinned the new definitions of ${accepted.map((t) => `"${t}"`).join(', ')} (MCP server "${name}"): offered again.`);
      }
      if (opts.json) return ctx.out(JSON.stringify(review, null, 2));
      if (review.tools.length === 0) return ctx.out(`MCP server "${name}" has no tools in review: every tool it lists is as pinned.`);
      ctx.out([...review.tools.map(describeReview), `Accept them: blitz mcp review ${name} --accept`].join('\n\n'));
    });
}

/** One tool's changes, a field a line pair: `- before` / `+ after`. */
export function describeReview(review: ToolReview): string {
  const head =
    review.change === 'new'
      ? `tool "${review.tool}": new since the server's tools were pinned (first listed ${review.seenAt})`
      : `tool "${review.tool}": changed since it was pinned (first listed so ${review.seenAt})`;
  return [head, ...review.fields.flatMap(describeField)].join('\n');
}

function describeField(change: FieldChange): string[] {
  return [
    `  ${change.field}:`,
    ...(change.before === undefined ? [] : [`    - ${shown(change.before)}`]),
    ...(change.after === undefined ? [] : [`    + ${shown(change.after)}`]),
  ];
}

function shown(value: unknown): string {
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/[\u0000-\u001f\u007f]/g, (c) =>
    JSON.stringify(c).slice(1, -1),
  );
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length} characters)` : text;
}
