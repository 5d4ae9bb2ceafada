import { useEffect, useState } from 'preact/hooks';
import type { AuditEntry } from '@blitz/client/api-types';
import type { PageApi } from './page-api.js';

/** How a call was decided, in the words of `blitz log calls`. */
export function ruleText(rule: AuditEntry['rule']): string {
  switch (rule.by) {
    case 'auto_approve':
      return 'auto_approve';
    case 'allow':
    case 'deny':
      return `${rule.by} ${rule.rule}`;
    case 'session':
      return 'allowed for the session';
    case 'asked':
      return `asked: ${rule.answer.replace(/_/g, ' ')}${rule.review ? ' (in review)' : ''}`;
    case 'refused':
      return `refused: ${rule.why.replace(/_/g, ' ')}`;
    case 'none':
      return '—';
    default: {
      const _exhaustive: never = rule;
      return _exhaustive;
    }
  }
}

export function outcomeText(call: AuditEntry): string {
  switch (call.outcome) {
    case 'result':
      return 'result';
    case 'tool_error':
      return 'tool error';
    case 'error':
      return `error ${call.code}`;
    case 'timed_out':
      return 'timed out';
    case 'cancelled':
      return 'cancelled';
    case 'refused':
      return 'refused';
    default: {
      const _exhaustive: never = call;
      return _exhaustive;
    }
  }
}

/** A server's latest calls through the hub, from the audit log (issue 31): who called what, what decided, how it ended. */
export function LatestCalls({ api, name, at }: { api: PageApi; name: string; at: number }) {
  const [calls, setCalls] = useState<AuditEntry[] | undefined>(undefined);
  useEffect(() => {
    let current = true;
    api.latestCalls(name).then(
      (answer) => current && setCalls(answer.calls),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, name, at]);

  return (
    <section aria-labelledby="calls-heading" class="card">
      <h3 id="calls-heading">Latest calls</h3>
      {calls?.length === 0 && <p class="empty">No call through Blitz has reached it yet.</p>}
      {calls && calls.length > 0 && (
        <div class="table-scroll">
          <table data-testid="latest-calls">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Call</th>
                <th scope="col">Client</th>
                <th scope="col">Decided by</th>
                <th scope="col">Outcome</th>
                <th scope="col">Time taken</th>
              </tr>
            </thead>
            <tbody>
              {calls.map((c, i) => (
                <tr key={`${c.time}-${i}`}>
                  <td>
                    <time dateTime={c.time}>{new Date(c.time).toLocaleTimeString()}</time>
                  </td>
                  <td>
                    <code>{c.name}</code>
                    {c.kind !== 'tool' && <> ({c.kind})</>}
                  </td>
                  <td>
                    {c.client ?? 'unnamed'}
                    {c.agent !== 'main' && <> as {c.agent}</>}
                  </td>
                  <td>{ruleText(c.rule)}</td>
                  <td class={c.outcome === 'result' ? undefined : 'server-error'}>{outcomeText(c)}</td>
                  <td>{c.durationMs} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="hint">
        From the audit log, <code>logs/audit.jsonl</code> (never the arguments' values); all of it:{' '}
        <code>blitz log calls --server {name}</code>.
      </p>
    </section>
  );
}
