import { CredentialStore, matchesServerUrl, probeKeychain, type ServerConfig } from '@blitz/core';
import type { CliContext } from './context.js';
import { connectToDaemon } from './daemon-connection.js';

/** The sign-in store as this process sees it (the keychain probed in a child process). */
export function openSignInStore(ctx: CliContext): Promise<CredentialStore> {
  return CredentialStore.open({ paths: ctx.paths, probe: () => probeKeychain({ env: ctx.env }) });
}

/** Which HTTP servers are signed in: a stored sign-in made for the server's current URL. */
export async function signedInServers(store: CredentialStore, servers: readonly ServerConfig[]): Promise<Set<string>> {
  const signedIn = new Set<string>();
  await Promise.all(
    servers.map(async (s) => {
      if (s.transport.kind !== 'http') return;
      const creds = await store.read(s.name);
      if (creds && matchesServerUrl(creds, s.transport.url)) signedIn.add(s.name);
    }),
  );
  return signedIn;
}

/**
 * Tells a running daemon that a server's sign-in changed, so it stops using the old tokens
 * now. Without a daemon there is nothing to tell; a daemon that does not answer still reads
 * the store again at the server's next connection and after any 401.
 */
export async function tellDaemon(ctx: CliContext, server: string): Promise<void> {
  const daemon = connectToDaemon(ctx);
  if (!daemon) return;
  try {
    await daemon.client.oauthChanged(server);
  } catch (err) {
    ctx.err(
      `blitz: could not tell the running daemon (${(err as Error).message}); it reads the sign-in again when it next connects to ${server}`,
    );
  }
}
