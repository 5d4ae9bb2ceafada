import { useState } from 'preact/hooks';
import type { Ref } from 'preact';
import type { PageApi } from './page-api.js';
import { clientSnippets } from './client-snippets.js';

/**
 * Connect a client by hand (issue 29.9): its `blitz` entry, to copy into its settings. What
 * `blitz clients connect` writes for the clients it knows, with `blitz` found on the PATH.
 */
export function ClientSnippets({ api, headingRef }: { api: PageApi; headingRef: Ref<HTMLHeadingElement> }) {
  const snippets = clientSnippets({ command: 'blitz', args: ['connect'], env: api.connectEnv });
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
        Every client gets all of your servers through one entry that runs <code>blitz connect</code>. In a terminal,{' '}
        <code>blitz clients connect --dry-run --all</code> shows what it would change in each client's file and{' '}
        <code>blitz clients connect --all</code> makes the change; or copy the entry here.
      </p>
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
        {snippet.language === 'shell' ? 'Run it in a terminal.' : <>Into {snippet.where}, merged with what is there.</>} Where a client does
        not start from your shell (Claude Desktop, an editor opened from the desktop), give the full path of <code>blitz</code> (
        <code>command -v blitz</code>).
      </p>
      <pre class="stderr" data-testid="snippet" aria-label={`The blitz entry for ${snippet.title}`}>
        {snippet.text}
      </pre>
      <p aria-live="polite">{copied}</p>
    </section>
  );
}
