/** Loopback hosts may be reached over plain http; everything else needs https. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Why a client ID metadata document address is unacceptable: the client ID it becomes must
 * be an https URL with a path (2025-11-25 authorization spec), no credentials, no fragment.
 */
export function clientMetadataUrlProblem(text: string): string | undefined {
  const url = parseUrl(text);
  if (typeof url === 'string') return url;
  if (url.protocol !== 'https:') return `must be an https URL (the address of your client ID metadata document), not ${url.protocol}`;
  if (url.username || url.password) return 'must not contain credentials';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path, such as https://example.com/blitz/client.json';
  if (url.hash) return 'must not have a fragment';
  return undefined;
}

/** Why a server URL is unacceptable, or undefined when it is fine. */
export function urlProblem(text: string): string | undefined {
  // "localhost:3000/mcp" parses, as scheme "localhost:": say what is missing instead.
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(text.trim()))
    return `needs http:// or https:// in front, such as ${isLoopbackHost(text.split(/[:/]/)[0] ?? '') ? 'http' : 'https'}://${text.trim()}`;
  const url = parseUrl(text);
  if (typeof url === 'string') return url;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must be an http or https URL, not ${url.protocol}`;
  if (url.username || url.password) return 'must not contain credentials; put them in headers or use OAuth (blitz mcp login)';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `uses plain http to ${url.hostname}; use https (plain http is allowed only to localhost, 127.0.0.1 or [::1])`;
  }
  return undefined;
}

/** The URL, or why the text is none. */
function parseUrl(text: string): URL | string {
  try {
    return new URL(text);
  } catch {
    return `is not a valid URL: ${JSON.stringify(text)}`;
  }
}
