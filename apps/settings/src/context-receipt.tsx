import { useEffect, useState } from 'preact/hooks';
import type { ClientContext, ContextCost, ContextReceipt, WorkspaceSummary } from '@blitz/client/api-types';
import type { PageApi } from './page-api.js';

/**
 * `blitz context` on the page (issue 30.4): per client, what its tool list costs in tools, bytes
 * and tokens, server by server, and what deferral saves, for one open workspace at a time.
 */
export function ContextReceiptView({ api }: { api: PageApi }) {
  const [workspaces, setWorkspaces] = useState<WorkspaceSummary[] | undefined>(undefined);
  const [id, setId] = useState<string | undefined>(undefined);
  const [receipt, setReceipt] = useState<ContextReceipt | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    api.workspaces().then(
      (all) => (setWorkspaces(all), setId(all[0]?.id)),
      (err: Error) => setError(err.message),
    );
  }, []);
  useEffect(() => {
    if (id === undefined) return;
    setReceipt(undefined);
    api.context(id).then(
      (r) => (setReceipt(r), setError(undefined)),
      (err: Error) => setError(err.message),
    );
  }, [id]);

  return (
    <section aria-labelledby="context-heading">
      <h3 id="context-heading">What each client's tool list costs</h3>
      {error !== undefined ? (
        <p role="alert">Could not count the tool lists: {error}</p>
      ) : workspaces === undefined ? (
        <p>Counting…</p>
      ) : workspaces.length === 0 ? (
        <p>No workspace is open: a client that connects opens its project, and its tool lists are counted here.</p>
      ) : (
        <>
          {workspaces.length > 1 && (
            <div class="controls">
              <label class="control">
                <span>Workspace</span>
                <select value={id} onChange={(e) => setId((e.target as HTMLSelectElement).value)}>
                  {workspaces.map((w) => (
                    <option key={w.id} value={w.id}>
                      {w.root}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          )}
          {receipt === undefined ? <p>Counting…</p> : <Receipt receipt={receipt} />}
        </>
      )}
    </section>
  );
}

function Receipt({ receipt }: { receipt: ContextReceipt }) {
  const every = receipt.clients[0]?.everyTool;
  return (
    <>
      <p class="hint">
        In <code>{receipt.workspace}</code>
        {receipt.agent === 'main' ? '' : ` (agent ${receipt.agent})`}; tokens counted with {receipt.tokenizer}.
        {every && ` With every tool listed: ${costText(every)}.`} The same in a terminal: <code>blitz context</code>.
      </p>
      <div class="table-wrap">
        <table class="context-table">
          <caption>Each client's tools/list</caption>
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">Tools offered</th>
              <th scope="col">Tools</th>
              <th scope="col">Size</th>
              <th scope="col">Tokens</th>
              <th scope="col">Saved by search</th>
            </tr>
          </thead>
          <tbody>
            {receipt.clients.map((c) => (
              <tr key={c.label} data-client={c.client ?? ''}>
                <th scope="row">{c.label}</th>
                <td title={c.because}>{c.surface}</td>
                <td>{c.listed.tools}</td>
                <td>{formatBytes(c.listed.bytes)}</td>
                <td>{count(c.listed.tokens)}</td>
                <td>{savedText(c)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {receipt.clients.map((c) => (
        <details key={c.label} class="context-client">
          <summary>{c.label}, server by server</summary>
          <p class="hint">
            {c.surface} ({c.because}).
          </p>
          <div class="table-wrap">
            <table>
              <caption>{c.label}'s tools/list by server</caption>
              <thead>
                <tr>
                  <th scope="col">Server</th>
                  <th scope="col">Listed</th>
                  <th scope="col">Behind search</th>
                  <th scope="col">Size</th>
                  <th scope="col">Tokens</th>
                </tr>
              </thead>
              <tbody>
                {c.servers.map((s) => (
                  <tr key={s.server}>
                    <th scope="row">{s.server}</th>
                    <td>{s.tools}</td>
                    <td>{s.deferred}</td>
                    <td>{formatBytes(s.bytes)}</td>
                    <td>{count(s.tokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ))}
    </>
  );
}

function costText(cost: ContextCost): string {
  return `${cost.tools} tools, ${formatBytes(cost.bytes)}, ${count(cost.tokens)} tokens`;
}

function savedText(c: ClientContext): string {
  return c.saved.tokens > 0 ? `${count(c.saved.tokens)} tokens (${Math.round((100 * c.saved.tokens) / c.everyTool.tokens)} %)` : 'none';
}

const count = (n: number) => n.toLocaleString('en-US');

/** In the units `blitz context` prints (core's formatBytes, which the page cannot import). */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
