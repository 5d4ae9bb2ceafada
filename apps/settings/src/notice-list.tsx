import type { Notice } from '@blitz/client/api-types';

/** The daemon's notice feed (failed / paused / recovered), newest first. */
export function NoticeList({ notices, title = 'Notices' }: { notices: Notice[]; title?: string }) {
  const newestFirst = [...notices].sort((a, b) => b.id - a.id);
  return (
    <section aria-labelledby="notices-heading" class="notices">
      <h2 id="notices-heading">{title}</h2>
      {newestFirst.length === 0 ? (
        <p class="empty">Nothing to report.</p>
      ) : (
        <ol class="notice-list">
          {newestFirst.map((n) => (
            <li key={n.id} class={`notice notice-${n.kind}`}>
              <time dateTime={n.time}>{new Date(n.time).toLocaleString()}</time> <span class="badge">{n.kind}</span>{' '}
              <strong>{n.server}</strong>: {n.message}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
