import { MASK } from './mask.js';
import { looksLikeCredential } from './credential-shape.js';
import { applyTextRules } from './text-rules.js';

/** A URL's path segments, each between `/`s, up to its query or fragment. */
const PATH_SEGMENT = /(?<=\/)[^/?#]+/g;

/** The path segments of a URL that look like credentials (`/mcp/3f9a…/sse`, `/sk-…/`). */
export function urlSecrets(url: string): string[] {
  return pathOf(url).flatMap((p) =>
    [...p.path.matchAll(PATH_SEGMENT)].map((m) => m[0]).filter((segment) => looksLikeCredential(decodeSafe(segment))),
  );
}

/**
 * A URL for display (issue 25.12): userinfo, secret query parameters and credential-like
 * tokens by the text rules, and path segments that look like credentials, masked.
 */
export function maskUrl(url: string): string {
  const shaped = applyTextRules(url);
  const found = pathOf(shaped);
  if (found.length === 0) return shaped;
  const [{ start, path }] = found as [{ start: number; path: string }];
  const masked = path.replace(PATH_SEGMENT, (segment) => (looksLikeCredential(decodeSafe(segment)) ? MASK : segment));
  return shaped.slice(0, start) + masked + shaped.slice(start + path.length);
}

/** The path of `scheme://host/path?…`, where it starts in the text; none for text that is not such a URL. */
function pathOf(url: string): Array<{ start: number; path: string }> {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  if (!m) return [];
  const rest = url.slice(m[0].length);
  const end = rest.search(/[?#]/);
  return [{ start: m[0].length, path: end === -1 ? rest : rest.slice(0, end) }];
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
