import { useEffect, useState } from 'preact/hooks';
import type { SignInStatus } from '@blitz/client/api-types';
import type { PageApi } from './page-api.js';

interface Props {
  api: PageApi;
  name: string;
  /** When the page last read the daemon: the sign-in is read again with it. */
  at: number;
  readOnly: boolean;
  refresh(): Promise<void>;
}

/**
 * Sign in and Sign out of an HTTP server (issue 29.7): the flow of `blitz mcp login`, run by
 * the daemon; the authorization page opens in a new tab and comes back to the daemon's
 * listener on 127.0.0.1, and this card follows the outcome.
 */
export function SignInCard({ api, name, at, readOnly, refresh }: Props) {
  const [status, setStatus] = useState<SignInStatus | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    api.signInStatus(name).then(
      (s) => current && setStatus(s),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, name, at]);

  const signIn = async () => {
    setError(undefined);
    setBusy(true);
    // Opened now, while the click counts as the user's, so no popup blocker stops it; the address follows.
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    try {
      const started = await api.signIn(name);
      if (tab) tab.location.href = started.authorizationUrl;
      setStatus((s) => ({
        server: name,
        signedIn: s?.signedIn ?? false,
        attempt: { state: 'waiting', authorizationUrl: started.authorizationUrl },
      }));
    } catch (err) {
      tab?.close();
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const signOut = async () => {
    setError(undefined);
    setBusy(true);
    try {
      await api.signOut(name);
      setStatus(await api.signInStatus(name));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
    await refresh();
  };

  const attempt = status?.attempt;
  return (
    <section aria-labelledby="sign-in-heading" class="card">
      <h3 id="sign-in-heading">Sign-in</h3>
      <p data-testid="sign-in-state">
        {status === undefined ? '…' : status.signedIn ? `Signed in to ${name} (OAuth).` : `Not signed in to ${name}.`}
      </p>
      {!readOnly && (
        <p class="actions">
          <button type="button" class={status?.signedIn ? undefined : 'primary'} onClick={signIn} disabled={busy}>
            {status?.signedIn ? `Sign in to ${name} again` : `Sign in to ${name}`}
          </button>
          {status?.signedIn && (
            <button type="button" onClick={signOut} disabled={busy}>
              Sign out of {name}
            </button>
          )}
        </p>
      )}
      <div aria-live="polite">
        {attempt?.state === 'waiting' && (
          <p>
            Waiting for you to finish in the browser tab…{' '}
            <a href={attempt.authorizationUrl} target="_blank" rel="noopener noreferrer">
              Open the sign-in page
            </a>{' '}
            if no tab opened.
          </p>
        )}
        {attempt?.state === 'failed' && <p class="server-error">{attempt.message}</p>}
        {attempt?.state === 'signedIn' && status?.signedIn && <p class="ok">Signed in; the server reconnects with it.</p>}
        {error && <p class="server-error">{error}</p>}
      </div>
      <p class="hint">
        The same as <code>blitz mcp login {name}</code>: the sign-in is kept in the OS keychain (or Blitz's own 0600 file).
      </p>
    </section>
  );
}
