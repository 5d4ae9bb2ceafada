import type http from 'node:http';
import type { ErrorCode } from '@blitz/core';
import { statusOf } from '../wire/error-answer.js';
import { readPageFile } from './page-files.js';
import type { PageSessions } from './page-sessions.js';

/** Nothing but the daemon itself: no CDN, fonts or scripts from elsewhere, no framing. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PUBLIC_FILES = new Set(['app.css', 'favicon.svg']);

const HOW_TO_OPEN = 'Open the settings with <code>blitz settings</code>, or choose <b>Open settings</b> in the Blitz tray menu.';

/**
 * `/settings/…`: the page's static files, to a browser holding a session cookie. A
 * `?code=` from `blitz settings` is traded for that cookie and the browser sent to the clean
 * address, so the code does not stay in the address bar; a wrong, used or expired code, or
 * no cookie, gets a page saying how to open the settings, nothing else.
 */
export function servePage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  sessions: PageSessions,
  dir: string | undefined,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 'METHOD_NOT_ALLOWED', 'The settings page only answers GET.');
  if (url.pathname === '/settings') return redirect(res, `/settings/${url.search}`);
  const code = url.searchParams.get('code');
  if (code !== null) {
    const session = sessions.redeem(code);
    if (!session)
      return refuse(
        res,
        'PERMISSION_DENIED',
        `This link to the Blitz settings was already used or has expired (a link works once, for a minute). ${HOW_TO_OPEN}`,
      );
    return redirect(res, '/settings/', sessions.cookieFor(session));
  }
  const relative = url.pathname.slice('/settings/'.length);
  // The stylesheet and the icon hold nothing of the user's: the pages saying how to open the settings use them too.
  if (!PUBLIC_FILES.has(relative) && !sessions.fromCookie(req.headers.cookie))
    return refuse(
      res,
      'UNAUTHENTICATED',
      `This browser has no Blitz settings session (it ended after 12 hours unused, or was never opened here). ${HOW_TO_OPEN}`,
    );
  const file = readPageFile(dir, relative);
  switch (file.kind) {
    case 'file':
      res.writeHead(200, { ...pageHeaders(), 'content-type': file.type, 'content-length': file.body.length });
      res.end(req.method === 'HEAD' ? undefined : file.body);
      return;
    case 'missing':
      return refuse(res, 'NOT_FOUND', `There is no ${escapeHtml(url.pathname)} on the settings page.`);
    case 'notBuilt':
      return refuse(
        res,
        'SERVER_UNAVAILABLE',
        `The settings page is not built${file.dir ? ` (nothing in ${escapeHtml(file.dir)})` : ''}: run <code>npm run build</code> in the Blitz checkout.`,
      );
    default: {
      const _exhaustive: never = file;
      return _exhaustive;
    }
  }
}

function pageHeaders(): Record<string, string> {
  return {
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

function redirect(res: http.ServerResponse, location: string, cookie?: string): void {
  res.writeHead(303, { ...pageHeaders(), location, 'content-length': 0, ...(cookie ? { 'set-cookie': cookie } : {}) });
  res.end();
}

/** A page saying why, with the status the daemon's one table gives its code. */
function refuse(res: http.ServerResponse, code: ErrorCode, message: string): void {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>Blitz settings</title>
<link rel="icon" href="/settings/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/settings/app.css"></head>
<body><header class="top"><h1>Blitz settings</h1></header><main><p class="banner">${message}</p></main></body></html>
`;
  res.writeHead(statusOf(code), {
    ...pageHeaders(),
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
  });
  res.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
