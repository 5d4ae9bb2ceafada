import { useEffect, useRef } from 'preact/hooks';
import type { PageApi } from './page-api.js';
import { useRoute } from './route.js';
import { ServerDetail } from './server-detail.js';
import { ServerForm } from './server-form.js';
import { ServerList } from './server-list.js';
import { ServerLogs } from './server-logs.js';
import { ClientSnippets } from './client-snippets-view.js';
import { NoticeList } from './notice-list.js';
import { useSnapshot } from './use-snapshot.js';
import type { ApiError } from '@blitz/client/api-error';

export function App({ api }: { api: PageApi }) {
  const [snapshot, refresh] = useSnapshot(api);
  const route = useRoute();
  const problems = [
    ...(snapshot.status?.problems ?? []),
    ...(snapshot.status?.problems.length ? [] : (snapshot.configError?.problems ?? [])),
  ];
  // With settings.toml in error nothing that writes is offered: the file is fixed first.
  const readOnly = problems.length > 0 || snapshot.configError !== undefined || snapshot.down !== undefined;
  const heading = useRef<HTMLHeadingElement>(null);
  // A new view moves the focus to its heading, so keyboard and screen-reader users follow —
  // unless the focus is already on something of the new view (never taken away from the user).
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) heading.current?.focus();
  }, [route.view, route.view === 'list' || route.view === 'add' || route.view === 'clients' ? '' : route.name]);

  return (
    <>
      <header class="top">
        <h1>
          <a href="#/">Blitz settings</a>
        </h1>
        <p class="file">
          MCP servers from <code>{api.settingsFile}</code> · <a href="#/clients">Connect a client</a>
        </p>
      </header>
      <main class={snapshot.down ? 'stale' : undefined}>
        {snapshot.down && <DownBanner down={snapshot.down} since={snapshot.at} />}
        {problems.length > 0 && (
          <div class="banner error" role="alert">
            <p>
              <strong>settings.toml has problems</strong>; the settings in force are the last good ones, and nothing can be changed here
              until the file is fixed:
            </p>
            <ul>
              {problems.map((p) => (
                <li key={p}>
                  <code>{p}</code>
                </li>
              ))}
            </ul>
          </div>
        )}
        {route.view === 'list' && (
          <>
            <ServerList api={api} snapshot={snapshot} readOnly={readOnly} refresh={refresh} headingRef={heading} />
            <NoticeList notices={snapshot.status?.notices ?? []} />
          </>
        )}
        {(route.view === 'add' || route.view === 'edit') && (
          <ServerForm
            api={api}
            snapshot={snapshot}
            editing={route.view === 'edit' ? route.name : undefined}
            focus={route.view === 'edit' ? route.focus : undefined}
            readOnly={readOnly}
            refresh={refresh}
            headingRef={heading}
          />
        )}
        {route.view === 'clients' && <ClientSnippets api={api} headingRef={heading} readOnly={readOnly} refresh={refresh} />}
        {route.view === 'logs' && <ServerLogs api={api} name={route.name} headingRef={heading} />}
        {route.view === 'server' && (
          <ServerDetail api={api} snapshot={snapshot} name={route.name} readOnly={readOnly} refresh={refresh} headingRef={heading} />
        )}
      </main>
    </>
  );
}

/** Why nothing can be done now, and what to do; what is shown below is what the daemon last said. */
function DownBanner({ down, since }: { down: ApiError; since: number }) {
  const when = new Date(since).toLocaleTimeString();
  if (down.status === 401) {
    return (
      <div class="banner error" role="alert" data-testid="down">
        <p>
          <strong>This settings session has ended</strong> (it ends after 12 hours unused). Open the settings again with{' '}
          <code>blitz settings</code>, or <b>Open settings</b> in the tray.
        </p>
      </div>
    );
  }
  return (
    <div class="banner error" role="alert" data-testid="down">
      <p>
        <strong>{down.status === 0 ? 'The Blitz daemon is not running' : `The Blitz daemon answers with an error: ${down.message}`}</strong>
        {down.status === 0 && (
          <>
            {' '}
            (or does not answer). Start it with <code>blitz daemon start</code>; this page reconnects by itself.
          </>
        )}
      </p>
      <p>Shown below, greyed: what it said at {when}. Nothing can be changed until it is back.</p>
    </div>
  );
}
