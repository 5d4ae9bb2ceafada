import { useEffect, useRef } from 'preact/hooks';
import type { PageApi } from './page-api.js';
import { useRoute } from './route.js';
import { ServerDetail } from './server-detail.js';
import { ServerForm } from './server-form.js';
import { ServerList } from './server-list.js';
import { NoticeList } from './notice-list.js';
import { useSnapshot } from './use-snapshot.js';

export function App({ api }: { api: PageApi }) {
  const [snapshot, refresh] = useSnapshot(api);
  const route = useRoute();
  const problems = [...(snapshot.status?.problems ?? []), ...(snapshot.status?.problems.length ? [] : (snapshot.configError?.problems ?? []))];
  // With settings.toml in error nothing that writes is offered: the file is fixed first.
  const readOnly = problems.length > 0 || snapshot.configError !== undefined;
  const heading = useRef<HTMLHeadingElement>(null);
  // A new view moves the focus to its heading, so keyboard and screen-reader users follow —
  // unless the focus is already on something of the new view (never taken away from the user).
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) heading.current?.focus();
  }, [route.view, route.view === 'list' || route.view === 'add' ? '' : route.name]);

  return (
    <>
      <header class="top">
        <h1>
          <a href="#/">Blitz settings</a>
        </h1>
        <p class="file">
          MCP servers from <code>{api.settingsFile}</code>
        </p>
      </header>
      <main>
        {snapshot.down && (
          <div class="banner error" role="alert">
            {snapshot.down.status === 401 ? 'This settings session has ended (the daemon restarted?). Open the settings again with "blitz settings".' : snapshot.down.message}
          </div>
        )}
        {problems.length > 0 && (
          <div class="banner error" role="alert">
            <p>
              <strong>settings.toml has problems</strong>; the settings in force are the last good ones, and nothing can be changed here until the file is fixed:
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
          <ServerForm api={api} snapshot={snapshot} editing={route.view === 'edit' ? route.name : undefined} readOnly={readOnly} refresh={refresh} headingRef={heading} />
        )}
        {route.view === 'server' && <ServerDetail api={api} snapshot={snapshot} name={route.name} readOnly={readOnly} refresh={refresh} headingRef={heading} />}
      </main>
    </>
  );
}
