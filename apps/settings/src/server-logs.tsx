import { useEffect, useRef, useState } from 'preact/hooks';
import type { Ref } from 'preact';
import type { ServerLogLine } from '@blitz/client/api-types';
import type { PageApi } from './page-api.js';
import { hrefOf } from './route.js';

/** A live view reads new lines this often: a line shows within a second of being written. */
export const LOG_POLL_MS = 1_000;
/** The view keeps this many lines; older ones leave the top. */
const MAX_LINES = 2_000;

type Source = 'all' | ServerLogLine['source'];

/**
 * A server's log, live (issue 29.9): what it writes on stderr and what the daemon logs about
 * it, as they come, with a filter and the choice to follow the newest line.
 */
export function ServerLogs({ api, name, headingRef }: { api: PageApi; name: string; headingRef: Ref<HTMLHeadingElement> }) {
  const [lines, setLines] = useState<ServerLogLine[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  const [filter, setFilter] = useState('');
  const [source, setSource] = useState<Source>('all');
  const [follow, setFollow] = useState(true);
  const box = useRef<HTMLOListElement>(null);

  useEffect(() => {
    let last = 0;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setLines([]);
    const read = async () => {
      try {
        const got = await api.serverLogs(name, last);
        last = got.last;
        if (got.lines.length > 0) setLines((kept) => [...kept, ...got.lines].slice(-MAX_LINES));
        setError(undefined);
      } catch (err) {
        setError((err as Error).message);
      }
      if (!stopped) timer = setTimeout(() => void read(), LOG_POLL_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, name]);

  const needle = filter.trim().toLowerCase();
  const shown = lines.filter((l) => (source === 'all' || l.source === source) && (!needle || l.text.toLowerCase().includes(needle)));
  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [shown.length, follow]);

  return (
    <section aria-labelledby="logs-heading">
      <p>
        <a href={hrefOf({ view: 'server', name })}>← {name}</a>
      </p>
      <h2 id="logs-heading" tabIndex={-1} ref={headingRef}>
        Logs of {name}
      </h2>
      <p class="hint">
        Its stderr and the daemon's lines about it, as they come (the last 500 the daemon keeps, then every new one). The whole daemon log
        is <code>logs/blitz.log</code>.
      </p>
      <div class="controls">
        <label class="control">
          <span>Filter lines</span>
          <input type="search" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
        </label>
        <label class="control">
          <span>Show</span>
          <select value={source} onChange={(e) => setSource((e.target as HTMLSelectElement).value as Source)}>
            <option value="all">everything</option>
            <option value="stderr">its stderr</option>
            <option value="daemon">the daemon's lines</option>
          </select>
        </label>
        <label class="control check">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow((e.target as HTMLInputElement).checked)} /> Follow the newest
          line
        </label>
      </div>
      {error && (
        <p class="banner error" role="alert">
          {error}
        </p>
      )}
      <ol class="log" ref={box} aria-label={`Log lines of ${name}`} tabIndex={0} data-testid="log-lines">
        {shown.map((l) => (
          <li key={l.seq} class={`log-${l.source}${l.level === 'warn' || l.level === 'error' ? ' log-warn' : ''}`}>
            <time dateTime={l.time}>{new Date(l.time).toLocaleTimeString()}</time> <span class="log-source">{l.source}</span>{' '}
            <span class="log-text">{l.text}</span>
          </li>
        ))}
      </ol>
      {shown.length === 0 && <p class="empty">{lines.length === 0 ? 'Nothing logged about it yet.' : 'No line matches.'}</p>}
    </section>
  );
}
