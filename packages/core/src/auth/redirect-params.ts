/** What the browser's final address carries back from the authorization server. */
export interface RedirectParams {
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
}

export type RedirectVerdict =
  | { kind: 'code'; code: string }
  /** From another sign-in attempt, or not a redirect at all: ignored, the wait goes on. */
  | { kind: 'refused'; message: string }
  /** The user (or the server) said no: the sign-in ends. */
  | { kind: 'denied'; message: string };

export function paramsFromQuery(query: URLSearchParams): RedirectParams {
  const get = (name: string) => query.get(name) ?? undefined;
  const params: RedirectParams = {};
  for (const [key, value] of [
    ['code', get('code')],
    ['state', get('state')],
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

/** Whether a redirect belongs to this attempt (its `state`) and what it says. */
export function judgeRedirect(params: RedirectParams, expectedState: string): RedirectVerdict {
  if (params.state !== expectedState) {
    return {
      kind: 'refused',
      message:
        params.state === undefined
          ? 'that address carries no state, so it cannot be told from another sign-in attempt; paste the whole address the browser ended on'
          : 'that address is from another sign-in attempt (its state does not match); use the address this sign-in ends on',
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
