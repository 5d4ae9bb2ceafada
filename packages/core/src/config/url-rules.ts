/** Loopback hosts may be reached over plain http; everything else needs https. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Why a server URL is unacceptable, or undefined when it is fine. */
export function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `is not a valid URL: ${JSON.stringify(text)}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must be an http or https URL, not ${url.protocol}`;
  if (url.username || url.password) return 'must not contain credentials; put them in headers or use OAuth (blitz mcp login)';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `uses plain http to ${url.hostname}; use https (plain http is allowed only to localhost, 127.0.0.1 or [::1])`;
  }
  return undefined;
}
