import { useEffect, useState } from 'preact/hooks';
import type { Ref } from 'preact';
import type { ServerTestResult, WorkspaceServerDetail } from '@blitz/client/api-types';
import { NoticeList } from './notice-list.js';
import type { PageApi } from './page-api.js';
import { hrefOf } from './route.js';
import { plural, toolCount, Warnings } from './server-list.js';
import { stateText, targetText } from './state-text.js';
import { ToolTable } from './tool-table.js';
import type { Snapshot } from './use-snapshot.js';
import { takeSaveWarnings } from './save-warnings.js';
import { problemText } from './problem-text.js';
import { SignInCard } from './sign-in-card.js';
import { LatestCalls } from './latest-calls.js';

interface Props {
  api: PageApi;
  snapshot: Snapshot;
  name: string;
  readOnly: boolean;
  refresh(): Promise<void>;
  headingRef: Ref<HTMLHeadingElement>;
}

type Test = { kind: 'idle' } | { kind: 'running'; since: number } | { kind: 'done'; result: ServerTestResult };

/** One server: its state, Test, and per open workspace its tools, stderr tail and Restart (MCP-47). */
export function ServerDetail({ api, snapshot, name, readOnly, refresh, headingRef }: Props) {
  const config = snapshot.config?.servers.find((s) => s.name === name);
  const status = snapshot.status?.servers.find((s) => s.name === name);
  const holding = snapshot.workspaces.filter((w) => w.serverStates.some((s) => s.name === name && s.source === 'global'));
  const [test, setTest] = useState<Test>({ kind: 'idle' });
  const [now, setNow] = useState(Date.now());
  // Shown once, on arriving from the form's Save: the same name later shows none.
  const [saveWarnings] = useState(() => takeSaveWarnings(name));
  const [details, setDetails] = useState<Record<string, WorkspaceServerDetail | string>>({});
  const holdingIds = holding.map((w) => w.id).join(' ');
  // Read again at every poll of the page, so tools and stderr follow the server.
  useEffect(() => {
    let current = true;
    void Promise.all(
      holding.map(async (w) => [w.id, await api.workspaceServer(w.id, name).catch((err: unknown) => (err as Error).message)] as const),
    ).then((pairs) => current && setDetails(Object.fromEntries(pairs)));
    return () => {
      current = false;
    };
  }, [api, name, snapshot.at, holdingIds]);
  const shown = holding.flatMap((w) => {
    const detail = details[w.id];
    return typeof detail === 'object' ? [{ root: w.root, detail }] : [];
  });

  useEffect(() => {
    if (test.kind !== 'running') return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [test.kind]);

  const runTest = async () => {
    setTest({ kind: 'running', since: Date.now() });
    setNow(Date.now());
    try {
      setTest({ kind: 'done', result: await api.test(name) });
    } catch (err) {
      setTest({ kind: 'done', result: { server: name, ok: false, tools: [], error: (err as Error).message, elapsedMs: 0 } });
    }
  };

  if (snapshot.config && !config) {
    return (
      <section>
        <h2 tabIndex={-1} ref={headingRef}>
          No server named {name}
        </h2>
        <p>
          It is not in settings.toml (any more). <a href={hrefOf({ view: 'list' })}>Back to the servers</a>
        </p>
      </section>
    );
  }
  const tools = toolCount(snapshot, name);
  // Listed by the server, named by its allow-list, and still not offered: skipped (a name clash).
  const skipped = new Set(shown.flatMap(({ detail }) => (detail.otherTools ?? []).filter((t) => t.inAllowList).map((t) => t.originalName)))
    .size;
  return (
    <section aria-labelledby="detail-heading">
      <p>
        <a href={hrefOf({ view: 'list' })}>← All servers</a>
      </p>
      <div class="section-head">
        <h2 id="detail-heading" tabIndex={-1} ref={headingRef}>
          {name}
        </h2>
        <p class="actions">
          <a class="button" href={hrefOf({ view: 'logs', name })}>
            Logs
          </a>
          {!readOnly && config && (
            <a class="button" href={hrefOf({ view: 'edit', name })}>
              Edit
            </a>
          )}
        </p>
      </div>
      {saveWarnings.length > 0 && (
        <div class="problems" role="status" data-testid="save-warnings">
          <h3>Saved, but it cannot start as it is:</h3>
          <ul>
            {saveWarnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      {config && (
        <dl class="facts">
          <dt>Runs</dt>
          <dd>
            <code>{targetText(config)}</code>
          </dd>
          <dt>Transport</dt>
          <dd>{typeof config.url === 'string' ? 'streamable HTTP' : 'stdio'}</dd>
          <dt>State</dt>
          <dd data-testid="detail-state">{status ? stateText(status, snapshot.at) : '…'}</dd>
          {status?.cause !== undefined ? (
            <>
              <dt>Why</dt>
              <dd class="server-error" data-testid="detail-cause">
                {status.cause}
              </dd>
              {status.remedy !== undefined && (
                <>
                  <dt>What to do</dt>
                  <dd data-testid="detail-remedy">{status.remedy}</dd>
                </>
              )}
            </>
          ) : (
            status?.error && (
              <>
                <dt>Error</dt>
                <dd class="server-error">{status.error}</dd>
              </>
            )
          )}
          <dt>Tools</dt>
          <dd>
            {tools === undefined ? 'not listed yet' : plural(tools, 'tool')}
            {skipped > 0 && <>, {skipped} not offered to clients</>}
          </dd>
          {status?.warnings && (
            <>
              <dt>Warnings</dt>
              <dd>
                <Warnings warnings={status.warnings} />
                {skipped > 0 && !readOnly && (
                  <p>
                    <a href={hrefOf({ view: 'edit', name, focus: 'prefix' })}>Give it a prefix</a> so its tools' names stop clashing with
                    another server's.
                  </p>
                )}
              </dd>
            </>
          )}
        </dl>
      )}

      {config && typeof config.url === 'string' && (
        <SignInCard api={api} name={name} at={snapshot.at} readOnly={readOnly} refresh={refresh} />
      )}

      <section aria-labelledby="test-heading" class="card">
        <h3 id="test-heading">Test</h3>
        <p class="hint">
          Connects to the server on its own (even when switched off), lists its tools and disconnects, as blitz doctor --online does.
        </p>
        <button type="button" onClick={runTest} disabled={test.kind === 'running'}>
          Test {name}
        </button>
        <div aria-live="polite" class="test-result">
          {test.kind === 'running' && (
            <p>
              <progress aria-label={`Testing ${name}`} /> Connecting… {Math.floor((now - test.since) / 1000)} s
            </p>
          )}
          {test.kind === 'done' &&
            (test.result.ok ? (
              <p class="ok">
                OK: {plural(test.result.tools.length, 'tool')} in {(test.result.elapsedMs / 1000).toFixed(1)} s
                {test.result.tools.length > 0 && <>: {test.result.tools.map((t) => t.name).join(', ')}</>}
              </p>
            ) : (
              <p class="server-error">Failed: {test.result.error}</p>
            ))}
        </div>
      </section>

      <ToolTable api={api} name={name} details={shown} readOnly={readOnly} refresh={refresh} />

      <LatestCalls api={api} name={name} at={snapshot.at} />

      <h3>In open workspaces</h3>
      {holding.length === 0 && (
        <p class="empty">No open workspace has this server now: it starts when a client connects and lists its tools.</p>
      )}
      {holding.map((w) => (
        <WorkspaceCard
          key={w.id}
          api={api}
          workspace={w.id}
          root={w.root}
          name={name}
          detail={details[w.id]}
          at={snapshot.at}
          readOnly={readOnly}
          refresh={refresh}
        />
      ))}
      <NoticeList notices={(snapshot.status?.notices ?? []).filter((n) => n.server === name)} title="Recent notices" />
    </section>
  );
}

function WorkspaceCard({
  api,
  workspace,
  root,
  name,
  detail,
  at,
  readOnly,
  refresh,
}: {
  api: PageApi;
  workspace: string;
  root: string;
  name: string;
  detail: WorkspaceServerDetail | string | undefined;
  at: number;
  readOnly: boolean;
  refresh(): Promise<void>;
}) {
  const [message, setMessage] = useState<string | undefined>(undefined);

  const accept = async () => {
    setMessage(undefined);
    try {
      const { accepted } = await api.acceptReview(workspace, name);
      setMessage(`Pinned the new definitions of ${accepted.join(', ')}: offered again.`);
    } catch (err) {
      setMessage((err as Error).message);
    }
    await refresh();
  };

  const restart = async () => {
    setMessage(undefined);
    try {
      const after = await api.restart(workspace, name);
      setMessage(`Restarted; now ${stateText(after, Date.now())}.`);
    } catch (err) {
      setMessage((err as Error).message);
    }
    await refresh();
  };

  return (
    <section class="card" aria-label={`${name} in ${root}`}>
      <div class="section-head">
        <h4>
          <code>{root}</code>
        </h4>
        {!readOnly && (
          <button type="button" onClick={restart} aria-label={`Restart ${name} in ${root}`}>
            Restart
          </button>
        )}
      </div>
      {message && <p aria-live="polite">{message}</p>}
      {typeof detail === 'string' && <p class="server-error">{detail}</p>}
      {typeof detail === 'object' && (
        <>
          <p>
            State: <span class={`state state-${detail.state}`}>{stateText(detail, at)}</span>
            {detail.pid !== undefined && <> (pid {detail.pid})</>}
          </p>
          {problemText(detail) && <p class="server-error">{problemText(detail)}</p>}
          {detail.warnings.length > 0 && (
            <ul class="warnings">
              {detail.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
          {detail.review && detail.review.length > 0 && (
            <div class="review" role="group" aria-label={`${name}: tools held for review`}>
              <p>
                Held for review — not as pinned when the server was first trusted (see <code>blitz mcp review {name}</code>):{' '}
                {detail.review.map((t) => `${t.tool} (${t.change})`).join(', ')}
              </p>
              {!readOnly && (
                <button type="button" onClick={accept} aria-label={`Accept the new tool definitions of ${name}`}>
                  Accept
                </button>
              )}
            </div>
          )}
          {detail.stderrTail && (
            <details>
              <summary>Last lines of its stderr</summary>
              <pre class="stderr">{detail.stderrTail}</pre>
            </details>
          )}
        </>
      )}
    </section>
  );
}
