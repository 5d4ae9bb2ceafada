import { useEffect, useState } from 'preact/hooks';
import type { ClientReport, ClientsReport } from '@blitz/client/api-types';
import type { PageApi } from './page-api.js';

/**
 * `blitz clients` on the page (issue 29.9): each client Blitz knows, how it is offered the
 * tools (issue 30.3), and for each one found here what import and connect would change, as
 * the diff `--dry-run` prints, with a button that makes that change.
 */
export function ClientFiles({ api, readOnly, refresh }: { api: PageApi; readOnly: boolean; refresh: () => void }) {
  const [report, setReport] = useState<ClientsReport | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const load = () =>
    api.clients().then(
      (r) => (setReport(r), setError(undefined)),
      (err: Error) => setError(err.message),
    );
  useEffect(() => void load(), []);

  const run = async (client: ClientReport, action: 'import' | 'connect') => {
    setBusy(true);
    let said: string;
    try {
      if (action === 'import') {
        const r = await api.importFrom(client.id);
        said = [
          r.added.length > 0 ? `Imported ${r.added.join(', ')} into ${r.target}.` : 'Nothing was imported.',
          ...r.refused.map((x) => `${x.name} was not imported: ${x.problems.join('; ')}`),
        ].join(' ');
        refresh();
      } else {
        const r = await api.connectClient(client.id);
        said = r.changed
          ? `Connected ${r.file}${r.removed.length > 0 ? `; took out ${r.removed.join(', ')} (Blitz runs them now)` : ''}. ${r.restartNote ?? ''}`
          : `${r.file} already points at Blitz; nothing changed.`;
      }
    } catch (err) {
      said = `Not done: ${(err as Error).message}`;
    }
    setDone({ ...done, [client.id]: said.trim() });
    await load();
    setBusy(false);
  };

  if (error !== undefined) return <p role="alert">Could not read the clients' files: {error}</p>;
  if (report === undefined) return <p>Looking for clients…</p>;
  const here = report.clients.filter((c) => c.installed || c.found);
  return (
    <>
      <table>
        <caption>Clients Blitz knows</caption>
        <thead>
          <tr>
            <th scope="col">Client</th>
            <th scope="col">Config file</th>
            <th scope="col">Status</th>
            <th scope="col">Tools offered</th>
          </tr>
        </thead>
        <tbody>
          {report.clients.map((c) => (
            <tr key={c.id}>
              <td>{c.title}</td>
              <td>
                <code>{c.file}</code>
              </td>
              <td>
                {c.error !== undefined
                  ? 'unreadable'
                  : c.pointsAtBlitz
                    ? 'connected'
                    : c.found
                      ? 'found'
                      : c.installed
                        ? 'no file yet'
                        : 'not found'}
              </td>
              <td title={c.surface.because}>{c.surface.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {here.map((c) => (
        <section key={c.id} class="client" aria-labelledby={`client-${c.id}`}>
          <h3 id={`client-${c.id}`}>{c.title}</h3>
          {c.error !== undefined ? (
            <p role="alert">{c.error}. Nothing is written to a file that could not be read; fix it, then reload.</p>
          ) : (
            <>
              <h4>Import its servers into Blitz</h4>
              {c.import.add.length === 0 ? (
                <p>
                  Nothing to import
                  {c.import.present.length > 0 ? `: ${c.import.present.map((p) => p.name).join(', ')} already in Blitz` : ''}.
                </p>
              ) : (
                <>
                  <ul>
                    {c.import.add.map((a) => (
                      <li key={a.name}>
                        <strong>{a.name}</strong>: <code>{a.describe}</code>
                      </li>
                    ))}
                  </ul>
                  <Diff text={c.import.diff} label={`What importing from ${c.title} changes in settings.toml`} />
                  <button type="button" disabled={readOnly || busy} onClick={() => void run(c, 'import')}>
                    Import {c.import.add.length} server{c.import.add.length === 1 ? '' : 's'} from {c.title}
                  </button>
                </>
              )}
              {c.import.conflicts.map((x) => (
                <p key={x.name}>Not imported: another server is named {x.name} already; rename one of them.</p>
              ))}
              <h4>Point it at Blitz</h4>
              {c.connect.error !== undefined ? (
                <p>{c.connect.error}</p>
              ) : c.connect.diff === '' ? (
                <p>It already points at Blitz.</p>
              ) : (
                <>
                  <Diff text={c.connect.diff} label={`What connecting ${c.title} changes in its file`} />
                  {c.connect.restartNote && <p class="hint">{c.connect.restartNote}</p>}
                  <button type="button" disabled={busy} onClick={() => void run(c, 'connect')}>
                    Connect {c.title}
                  </button>
                </>
              )}
            </>
          )}
          <p aria-live="polite">{done[c.id]}</p>
        </section>
      ))}
    </>
  );
}

function Diff({ text, label }: { text: string; label: string }) {
  return (
    <pre class="stderr" aria-label={label} tabIndex={0}>
      {text}
    </pre>
  );
}
