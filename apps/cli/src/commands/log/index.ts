import type { Command } from 'commander';
import type { AuditEntry, AuditRule } from '@blitz/client';
import { CliError, type CliContext } from '../../context.js';
import { renderTable } from '../../output/table.js';
import { readAuditLines } from './audit-lines.js';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function registerLog(program: Command, ctx: CliContext): void {
  const log = program.command('log').description("read the daemon's logs");
  log
    .command('calls')
    .description('every tool call, resource read and prompt get through the hub, from logs/audit.jsonl')
    .option('--server <name>', 'only calls to this server')
    .option('--client <name>', 'only calls of this client (its clientInfo name) or agent')
    .option('--since <duration>', 'only calls of the last 30s, 10m, 1h, 2d')
    .option('--json', 'print JSON, one entry a line')
    .action((opts: { server?: string; client?: string; since?: string; json?: boolean }) => {
      const since = opts.since === undefined ? undefined : Date.now() - durationMs(opts.since);
      const { entries, problems } = readAuditLines(ctx.paths.audit);
      // A bad line is said and skipped: the rest of the log is still worth reading.
      for (const problem of problems) ctx.err(`blitz: ${problem}`);
      const shown = entries.filter(
        (e) =>
          (opts.server === undefined || e.server === opts.server) &&
          (opts.client === undefined || e.client === opts.client || e.agent === opts.client) &&
          (since === undefined || Date.parse(e.time) >= since),
      );
      if (opts.json) {
        if (shown.length > 0) ctx.out(shown.map((e) => JSON.stringify(e)).join('\n'));
        return;
      }
      if (shown.length === 0) {
        ctx.out(entries.length === 0 ? `No calls recorded in ${ctx.paths.audit}.` : 'No calls match.');
        return;
      }
      ctx.out(
        renderTable(
          ['TIME', 'CLIENT', 'SERVER', 'CALL', 'DECIDED BY', 'OUTCOME', 'MS'],
          shown.map((e) => [
            e.time,
            `${e.client ?? '?'} (${e.agent})`,
            e.server ?? '-',
            `${e.kind === 'tool' ? '' : `${e.kind} `}${e.name}`,
            ruleText(e.rule),
            outcomeText(e),
            String(e.durationMs),
          ]),
        ),
      );
    });
}

function durationMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([smhd])$/.exec(text.trim());
  if (!match) throw new CliError(`--since ${text}: give a duration such as 30s, 10m, 1h or 2d`);
  return Number(match[1]) * UNITS[match[2]!]!;
}

export function ruleText(rule: AuditRule): string {
  switch (rule.by) {
    case 'auto_approve':
      return 'auto_approve';
    case 'allow':
    case 'deny':
      return `${rule.by} ${rule.rule}`;
    case 'session':
      return 'allowed for the session';
    case 'asked':
      return `asked${rule.review ? ' (in review)' : ''}${rule.rule ? ` by ${rule.rule}` : ''}: ${rule.answer}`;
    case 'refused':
      return rule.why;
    case 'none':
      return '-';
    default: {
      const _exhaustive: never = rule;
      return _exhaustive;
    }
  }
}

function outcomeText(entry: AuditEntry): string {
  return entry.outcome === 'error' ? `error ${entry.code}` : entry.outcome;
}
