/** What the browser's final address carries back from the authorization server. */
export interface RedirectParams {
  code?: string;
  state?: string;
  /** RFC 9207: the issuer of the authorization server that answered. */
  iss?: string;
  error?: string;
  errorDescription?: string;
}

/** What a redirect must carry to be this attempt's answer, from the authorization server Blitz sent the user to. */
export interface ExpectedRedirect {
  state: string;
  /** The issuer recorded at discovery (its metadata's `issuer`), compared with a present `iss`. */
  issuer: string;
  /** The metadata said `authorization_response_iss_parameter_supported`: an answer without `iss` is refused. */
  issRequired: boolean;
}

export type RedirectVerdict =
  | { kind: 'code'; code: string }
  /** From another sign-in attempt, or not a redirect at all: ignored, the wait goes on. */
  | { kind: 'refused'; message: string }
  /** The user (or the server) said no: the sign-in ends. */
  | { kind: 'denied'; message: string }
  /** RFC 9207: the answer names another issuer, or none where one is required (a mix-up): the sign-in ends, the code unused. */
  | { kind: 'wrongIssuer'; message: string; missing: boolean };

export function paramsFromQuery(query: URLSearchParams): RedirectParams {
  const get = (name: string) => query.get(name) ?? undefined;
  const params: RedirectParams = {};
  for (const [key, value] of [
    ['code', get('code')],
    ['state', get('state')],
    ['iss', get('iss')],
    ['error', get('error')],
    ['errorDescription', get('error_description')],
  ] as const) {
    if (value !== undefined) params[key] = value;
  }
  return params;
}

/**
 * Reads what the user pasted: the whole address the browser ended on (`http://127.0.0.1:…
 * /callback?code=…&state=…`), just its query, or `code#state`. Undefined when it is none of them.
 */
export function parsePastedRedirect(text: string): RedirectParams | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      return paramsFromQuery(new URL(trimmed).searchParams);
    } catch {
      return undefined;
    }
  }
  if (trimmed.startsWith('?')) return paramsFromQuery(new URLSearchParams(trimmed.slice(1)));
  const hash = trimmed.indexOf('#');
  if (hash <= 0 || hash === trimmed.length - 1 || /\s/.test(trimmed)) return undefined;
  return { code: trimmed.slice(0, hash), state: trimmed.slice(hash + 1) };
}

/**
 * Whether a redirect belongs to this attempt (its `state`), comes from the authorization server
 * it was sent to (RFC 9207 `iss`, compared as a plain string: no normalisation), and what it says.
 */
export function judgeRedirect(params: RedirectParams, expected: ExpectedRedirect): RedirectVerdict {
  if (params.state !== expected.state) {
    return {
      kind: 'refused',
      message:
        params.state === undefined
          ? 'that address carries no state, so it cannot be told from another sign-in attempt; paste the whole address the browser ended on'
          : 'that address is from another sign-in attempt (its state does not match); use the address this sign-in ends on',
    };
  }
  if (params.iss === undefined ? expected.issRequired : params.iss !== expected.issuer) {
    return {
      kind: 'wrongIssuer',
      missing: params.iss === undefined,
      message:
        params.iss === undefined
          ? `the answer carries no iss, which authorization server ${expected.issuer} says it always sends (RFC 9207); it may come from another server, so its code is not used`
          : `the answer comes from issuer ${JSON.stringify(params.iss)}, not from ${JSON.stringify(expected.issuer)}, the authorization server this sign-in went to (RFC 9207); its code is not used`,
    };
  }
  if (params.error !== undefined) {
    return {
      kind: 'denied',
      message: `the authorization server refused the sign-in: ${params.error}${params.errorDescription ? ` (${params.errorDescription})` : ''}`,
    };
  }
  if (params.code === undefined || params.code === '') return { kind: 'refused', message: 'that address carries no authorization code' };
  return { kind: 'code', code: params.code };
}
