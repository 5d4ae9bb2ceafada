import { CREDENTIAL_IN_TEXT } from './credential-shape.js';
import { isReferenceOnly } from './env-reference.js';
import { MASK, maskCredential, splitCredential } from './mask.js';
import { isSecretField, isSecretParam } from './secret-names.js';

/**
 * Secrets found by their shape rather than by value, applied after known values are
 * masked. Each rule masks the value only, so the text still says what was there.
 */
export function applyTextRules(text: string): string {
  // A token with a known prefix (`sk-…`, `ghp_…`, a JWT) is a secret wherever it is: a URL path, a message.
  const tokensMasked = MAY_HOLD_TOKEN.test(text) ? text.replace(CREDENTIAL_IN_TEXT, MASK) : text;
  // Most texts (names, paths, states) hold nothing any rule looks for: they are passed as they are.
  if (!MAY_MATCH.test(tokensMasked)) return tokensMasked;
  let out = tokensMasked.replace(URL_USERINFO, (whole, scheme: string, userinfo: string) =>
    isReferenceOnly(userinfo) ? whole : `${scheme}${MASK}@`,
  );
  out = maskValuesAfter(
    out,
    PARAM,
    (m) => (m[1] === '' || m[1] === '?' || m[1] === '&' ? isSecretParam(m[2] ?? '') : isSecretField(m[2] ?? '')),
    PARAM_VALUE,
  );
  out = maskValuesAfter(out, QUOTED_KEY, (m) => isSecretField(m[2] ?? ''), JSON_LITERAL);
  out = maskValuesAfter(out, HEADER, (m) => isSecretField(m[1] ?? ''), REST_OF_LINE);
  return out.replace(BEARER, (_whole, bearer: string, space: string) => `${bearer}${space}${MASK}`);
}

/** What a credential-shaped token needs in its text (credential-shape.ts): one of its prefixes. */
const MAY_HOLD_TOKEN = /sk[-_]|rk_|gh[pousr]_|github_pat_|xox|xapp-|gl[a-z]+-|AKIA|ASIA|AIza|npm_|hf_|pypi-|dop_v1_|shp|sq0atp-|ya29\.|eyJ/;

/** What every rule below needs in its text: `@` (userinfo), `=` (parameters), `:` (keys, headers) or the word Bearer. */
const MAY_MATCH = /[:=@]|bearer/i;

/** `scheme://user:pass@host`: the whole userinfo, since tokens are often sent as the user name. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]+)@/gi;

/** `?name=`, `&name=`, a form body's first `name=`, or a `name=value` word in prose. */
const PARAM = /(^|[?&;,\s])([A-Za-z][\w.-]*)[ \t]*=[ \t]*/g;
// A `${…}` reference is one piece of the value: its `}` would otherwise end the value there,
// masking `${TOKEN` of a reference shown as it is, and leaving the literal text after it. An
// authorization scheme is part of it too (`Authorization=Bearer abc`): the value does not end
// at the space after the scheme, which would mask the scheme and show the credential. A
// reference holds no `$` or `{`: each `${` then looks no further than the next, not to the end
// of the line (a line of `${${${…` took time growing with its length squared: 1.2 s for 64 KB).
const PARAM_VALUE = /(?:(?:Bearer|Basic|Digest|Token|Bot|Negotiate|NTLM)[ \t]+(?=[^\s]))?(?:\$\{[^${}\r\n]*\}|[^\s&#"'<>,;)}\]])*/iy;

/**
 * `"name": value` in JSON or JS text: a key opens an object or follows a comma, so prose
 * that quotes a field (`field "env.API_TOKEN": must be a string`) keeps its words.
 */
const QUOTED_KEY = /(?<=[{,][ \t\r\n]*)(["'])([A-Za-z][\w.-]*)\1[ \t]*:[ \t]*/g;
const JSON_LITERAL = /[\w.+-]*/y;

/**
 * `Name: value` header or YAML-like lines; an unquoted value runs to the end of the line. A
 * name is not the end of a path (`/etc/passwd: not a directory`): a path is no secret.
 */
const HEADER = /(?<![\w.\-/\\])([A-Za-z][\w.-]*)[ \t]*:[ \t]*/g;
const REST_OF_LINE = /[^\r\n]*/y;

/**
 * `Bearer <token>` anywhere: only the token goes. Words that follow "Bearer" in prose
 * ("missing Bearer token") are not tokens; `*` is not a token character, so masks stay.
 */
const BEARER = /\b(Bearer)(\s+)(?!(?:tokens?|auth|authentication|authorization|realm|scheme|header)\b)[A-Za-z0-9\-._~+/]+=*/gi;

/** `"password": true` says that a field is a password, and holds none. */
const FLAG = /^(?:true|false|null)$/;

const MASKED_VALUE = /^["']?(?:(?:Bearer|Basic|Digest|Token|Bot|Negotiate|NTLM)\s+)?\*\*\*["']?/i;

/**
 * Masks the value after each match of `key` that `isSecret` accepts. Non-secret matches
 * consume only their name, so a secret later on the same line is still seen.
 */
function maskValuesAfter(text: string, key: RegExp, isSecret: (m: RegExpExecArray) => boolean, unquoted: RegExp): string {
  let out = '';
  let last = 0;
  key.lastIndex = 0;
  for (let m = key.exec(text); m; m = key.exec(text)) {
    if (!isSecret(m)) continue;
    const start = m.index + m[0].length;
    // Masked already (text redacted twice, a masked config value shown): what follows is not the value.
    const masked = MASKED_VALUE.exec(text.slice(start, start + 64));
    if (masked) {
      key.lastIndex = start + masked[0].length;
      continue;
    }
    const end = valueEnd(text, start, unquoted);
    out += text.slice(last, start) + maskRawValue(text.slice(start, end));
    last = end;
    key.lastIndex = end;
  }
  return out + text.slice(last);
}

/** Where a value starting at `start` ends: after its closing quote, or where `unquoted` stops. */
function valueEnd(text: string, start: number, unquoted: RegExp): number {
  const quote = text[start];
  if (quote === '"' || quote === "'") {
    for (let i = start + 1; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === quote) return i + 1;
      else if (c === '\n' || c === '\r') return i;
    }
    return text.length;
  }
  unquoted.lastIndex = start;
  unquoted.exec(text);
  return unquoted.lastIndex;
}

function maskRawValue(raw: string): string {
  const quote = raw[0];
  if ((quote === '"' || quote === "'") && raw.length >= 2 && raw.endsWith(quote)) {
    return `${quote}${maskRawValue(raw.slice(1, -1))}${quote}`;
  }
  if (raw.trim() === '' || isReferenceOnly(raw) || FLAG.test(raw)) return raw;
  const credential = splitCredential(raw.trimEnd())?.credential;
  if (credential !== undefined && isReferenceOnly(credential)) return raw;
  return maskCredential(raw.trimEnd()) + raw.slice(raw.trimEnd().length);
}
