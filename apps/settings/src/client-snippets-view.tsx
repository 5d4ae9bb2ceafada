import { useState } from 'preact/hooks';
import type { Ref } from 'preact';
import type { PageApi } from './page-api.js';
import { clientSnippets } from './client-snippets.js';
import { ClientFiles } from './client-files.js';
import { ContextReceiptView } from './context-receipt.js';

/**
 * Connect a client by hand (issue 29.9): its `blitz` entry, to copy into its settings. What
 * `blitz clients connect` writes for the clients it knows, with `blitz` found on the PATH.
 */
export function ClientSnippets({
  api,
  headingRef,
  readOnly,
  refresh,
}: {
  api: PageApi;
  headingRef: Ref<HTMLHeadingElement>;
  readOnly: boolean;
  refresh: () => void;
}) {
  const { command, args, onPath } = api.launch;
  const snippets = clientSnippets({ command, args, env: api.connectEnv });
  const [id, setId] = useState(snippets[0]!.id);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const snippet = snippets.find((s) => s.id === id) ?? snippets[0]!;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet.text);
      setCopied(`Copied the ${snippet.title} entry.`);
    } catch {
      setCopied('This browser did not let the page copy: select the text and copy it.');
    }
  };

  return (
    <section aria-labelledby="clients-heading">
      <h2 id="clients-heading" tabIndex={-1} ref={headingRef}>
        Connect a client
      </h2>
      <p>
        Every client gets all of your servers through one entry that runs <code>blitz connect</code>. Below, each client found here: what
        importing its servers and connecting it would change, before anything is written (as <code>blitz clients connect --dry-run</code>{' '}
        shows it); or copy the entry by hand.
      </p>
      <ClientFiles api={api} readOnly={readOnly} refresh={refresh} />
      <ContextReceiptView api={api} />
      <h3>Copy the entry</h3>
      <div class="controls">
        <label class="control">
          <span>Client</span>
          <select
            value={id}
            onChange={(e) => {
              setId((e.target as HTMLSelectElement).value);
              setCopied(undefined);
            }}
          >
            {snippets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="hint">
        {snippet.language === 'shell' ? 'Run it in a terminal.' : <>Into {snippet.where}, merged with what is there.</>}{' '}
        {onPath ? (
          <>
            Where a client does not start from your shell (Claude Desktop, an editor opened from the desktop), give the full path of{' '}
            <code>blitz</code> (<code>command -v blitz</code>).
          </>
        ) : (
          <>
            <code>blitz</code> is not on the daemon's PATH, so the entry names Node and Blitz by their full paths; they change when Blitz is
            moved or reinstalled.
          </>
        )}
      </p>
      <pre class="stderr" data-testid="snippet" aria-label={`The blitz entry for ${snippet.title}`}>
        {snippet.text}
      </pre>
      <p aria-live="polite">{copied}</p>
    </section>
  );
}
