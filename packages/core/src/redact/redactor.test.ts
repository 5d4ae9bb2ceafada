import { describe, expect, it } from 'vitest';
import { BlitzError } from '../errors/blitz-error.js';
import { Redactor } from './redactor.js';

describe('Redactor rules (no known secrets)', () => {
  const redactor = new Redactor();

  it.each([
    ['Bearer token', 'GET /x Bearer abc.def-ghi_123==', 'GET /x Bearer ***'],
    ['bearer in lower case', 'bearer abc123xyz', 'bearer ***'],
    ['"Bearer token" in prose', 'missing Bearer token.', 'missing Bearer token.'],
    ['Bearer reference', 'Bearer ${TOKEN}', 'Bearer ${TOKEN}'],
    ['Authorization line keeps its scheme', 'Authorization: Basic dXNlcjpwYXNz\nAccept: json', 'Authorization: Basic ***\nAccept: json'],
    ['Authorization line without a scheme', 'authorization: sk-live-123', 'authorization: ***'],
    ['Proxy-Authorization line', 'Proxy-Authorization: Digest username="bob"', 'Proxy-Authorization: Digest ***'],
    ['secret-named header line', 'X-Api-Key: abcd\nX-Request-Id: 7', 'X-Api-Key: ***\nX-Request-Id: 7'],
    ['secret header after another name on the line', 'request failed: x-api-key: abc', 'request failed: x-api-key: ***'],
    [
      'JSON token response',
      '{"access_token":"ya29.abc","expires_in":3600,"token_type":"Bearer"}',
      '{"access_token":"***","expires_in":3600,"token_type":"Bearer"}',
    ],
    ['JSON with spaces and an escaped quote', '{ "password" : "a\\"b", "user": "bob" }', '{ "password" : "***", "user": "bob" }'],
    ['pretty-printed JSON', '{\n  "user": "bob",\n  "client_secret": "cs-1"\n}', '{\n  "user": "bob",\n  "client_secret": "***"\n}'],
    [
      'a quoted field name in prose is not a JSON key',
      'field "oauth.client_secret": must be a reference',
      'field "oauth.client_secret": must be a reference',
    ],
    [
      'a masked header value keeps the rest of the line',
      "--header 'Authorization: Bearer ***'  failed",
      "--header 'Authorization: Bearer ***'  failed",
    ],
    ['a word before a mask is no scheme', 'Authorization: hunter2 ***', 'Authorization: ***'],
    ['inspected JS object', "{ authorization: 'Bearer abc', accept: 'json' }", "{ authorization: 'Bearer ***', accept: 'json' }"],
    ['URL userinfo', 'fetch https://user:pass@example.com/x failed', 'fetch https://***@example.com/x failed'],
    ['token as URL user name', 'git clone https://ghp_abc@github.com/o/r', 'git clone https://***@github.com/o/r'],
    ['userinfo made of references', 'https://${USER}:${PASS}@host/', 'https://${USER}:${PASS}@host/'],
    ['an e-mail address is not userinfo', 'mail bob@example.com', 'mail bob@example.com'],
    ['OAuth callback code', 'GET /cb?code=xyz&state=s1', 'GET /cb?code=***&state=s1'],
    [
      'several query params',
      'https://h/api?api_key=k1&page=2&access_token=t1#frag',
      'https://h/api?api_key=***&page=2&access_token=***#frag',
    ],
    ['?key=', 'https://maps/api?key=AIza123', 'https://maps/api?key=***'],
    [
      'token request form body',
      'grant_type=authorization_code&code=abc&code_verifier=v&client_secret=s',
      'grant_type=authorization_code&code=***&code_verifier=***&client_secret=***',
    ],
    ['name=value word in prose', 'retrying with token=abc123 after 5s', 'retrying with token=*** after 5s'],
    ['name=value whose value is a reference (blitz mcp get)', 'env:  GITHUB_TOKEN=${GITHUB_TOKEN}', 'env:  GITHUB_TOKEN=${GITHUB_TOKEN}'],
    ['a reference with a default is a literal', 'GITHUB_TOKEN=${GITHUB_TOKEN:-ghp_1} x', 'GITHUB_TOKEN=*** x'],
    ['a reference and literal text', 'token=${PREFIX}abc, next', 'token=***, next'],
    ['a default with a space is masked whole', 'token=${T:-ab cd} next', 'token=*** next'],
    [
      'a reference opened inside another is text of the value, masked with it',
      'token=${${A}x and ${B${C}}d next',
      'token=*** and ${B${C}}d next',
    ],
    [
      'name=value with an auth scheme masks the credential, not the scheme',
      'sent Authorization=Bearer abc123 to h',
      'sent Authorization=Bearer *** to h',
    ],
    [
      'name=value with an auth scheme and a reference (blitz mcp get)',
      'headers:  Authorization=Bearer ${GH_TOKEN}',
      'headers:  Authorization=Bearer ${GH_TOKEN}',
    ],
    [
      'a JSON flag named like a secret is no secret (VS Code inputs in a diff)',
      '{ "id": "gh", "password": true, "secret": null }',
      '{ "id": "gh", "password": true, "secret": null }',
    ],
    ['"code=" in prose is an exit code', 'process exited with code=1', 'process exited with code=1'],
    ['counts of tokens are not tokens', 'max_tokens=512 input_tokens: 20', 'max_tokens=512 input_tokens: 20'],
    ['TOML assignment', 'password = "hunter2"', 'password = "***"'],
    ['empty value stays empty', '?token=&code=x', '?token=&code=***'],
    ['nothing secret', 'listed 12 tools in 30ms', 'listed 12 tools in 30ms'],
    [
      'a path ending in a secret-like name is not a header',
      'cannot open a workspace for /etc/passwd: not a directory',
      'cannot open a workspace for /etc/passwd: not a directory',
    ],
    ['nor is a Windows path', 'C:\\Users\\me\\token: missing', 'C:\\Users\\me\\token: missing'],
  ])('%s', (_name, text, expected) => {
    expect(redactor.redact(text)).toBe(expected);
    expect(redactor.redact(expected)).toBe(expected);
  });
});

describe('Redactor known secrets', () => {
  it.each<[string, string[], string, string]>([
    ['a value anywhere in text', ['sk-live-abcdef'], 'calling with sk-live-abcdef now', 'calling with *** now'],
    ['every occurrence', ['s3cr3t!'], 's3cr3t!/s3cr3t!', '***/***'],
    ['its JSON-escaped form', ['pa"ss\\word'], JSON.stringify({ x: 'pa"ss\\word' }), '{"x":"***"}'],
    ['its URL-encoded form', ['a b&c=d/e'], `https://h/?q=${encodeURIComponent('a b&c=d/e')}`, 'https://h/?q=***'],
    ['a Bearer header value, and its token alone (MCP-42)', ['Bearer tok_12345'], 'sent tok_12345 as a query', 'sent *** as a query'],
    ['the longest secret first', ['abcd', 'abcdefgh'], 'xabcdefghx abcd', 'x***x ***'],
    ['a short secret is not masked inside text', ['abc'], 'abcdef abc', 'abcdef abc'],
    ['a short secret is masked as the whole text', ['abc'], 'abc', '***'],
    ['"true" is not masked inside text', ['true'], '{"isError":true}', '{"isError":true}'],
    ['a padded value also counts trimmed', ['  hunter22  '], 'pw hunter22.', 'pw ***.'],
  ])('%s', (_name, secrets, text, expected) => {
    expect(new Redactor(secrets).redact(text)).toBe(expected);
  });

  it.each<[string, string, string]>([
    [
      'a token with a known prefix in a URL path (issue 25.12)',
      'GET https://h/mcp/sk-proj-4f9Qx2LmT7zR8vWk1pYd/sse failed',
      'GET https://h/mcp/***/sse failed',
    ],
    ['a GitHub token in prose', 'pushed with ghp_16C7e42F292c6912E7710c838347Ae178B4a today', 'pushed with *** today'],
    ['a JWT', 'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmN', 'token ***'],
    ['a word with a prefix-like start', 'installed sk-learn and ghp_x', 'installed sk-learn and ghp_x'],
  ])('by shape: %s', (_name, text, expected) => {
    expect(new Redactor().redact(text)).toBe(expected);
  });

  it("set() replaces a group: a removed server's values are no longer masked, other groups' and add()ed ones still are (issue 26.4)", () => {
    const redactor = new Redactor();
    redactor.add('oauth-token-1');
    redactor.set('settings', ['first-secret', 'second-secret']);
    redactor.set('workspace /a', ['second-secret', 'third-secret']);
    expect(redactor.redact('first-secret second-secret third-secret oauth-token-1')).toBe('*** *** *** ***');
    const version = redactor.version;
    redactor.set('settings', ['second-secret']);
    expect(redactor.version).toBeGreaterThan(version);
    expect(redactor.redact('first-secret second-secret third-secret oauth-token-1')).toBe('first-secret *** *** ***');
    redactor.set('workspace /a', []);
    expect(redactor.redact('first-secret second-secret third-secret oauth-token-1')).toBe('first-secret *** third-secret ***');
    const same = redactor.version;
    redactor.set('settings', ['second-secret']);
    expect(redactor.version).toBe(same);
  });

  it('add() takes effect at once', () => {
    const redactor = new Redactor(['first-secret']);
    expect(redactor.redact('second-secret')).toBe('second-secret');
    redactor.add('second-secret');
    expect(redactor.redact('first-secret second-secret')).toBe('*** ***');
  });

  it('its version grows with each secret new to it, and only then: text masked before may need masking again', () => {
    const redactor = new Redactor();
    const start = redactor.version;
    redactor.add('first-secret');
    expect(redactor.version).toBeGreaterThan(start);
    const once = redactor.version;
    redactor.add('first-secret');
    redactor.add('${TOKEN}');
    redactor.add('');
    expect(redactor.version).toBe(once);
    redactor.add('second-secret');
    expect(redactor.version).toBeGreaterThan(once);
  });

  it('ignores references as configured: they name where a secret lives', () => {
    const redactor = new Redactor(['${TOKEN}', 'Bearer ${env:API_KEY}']);
    expect(redactor.redact('environment variable ${TOKEN} is not set; ${env:API_KEY} neither')).toBe(
      'environment variable ${TOKEN} is not set; ${env:API_KEY} neither',
    );
  });

  it('ignores empty secrets', () => {
    const redactor = new Redactor(['', '   ']);
    expect(redactor.redact('  a b ')).toBe('  a b ');
  });
});

describe('Redactor.redactValue', () => {
  const redactor = new Redactor(['SECRET1234', 'abc', 'true']);

  it('redacts JSON-like values deeply and masks secret-named fields, leaving the input alone', () => {
    const input = {
      headers: { Authorization: 'Bearer abcdefgh', Accept: 'json' },
      args: ['--token', 'SECRET1234', 'abc', 'abcdef'],
      nested: [{ note: 'uses SECRET1234 here', password: 'x', api_key: 12345 }],
      GITHUB_TOKEN: '${GITHUB_TOKEN}',
      max_tokens: 5,
      code: 'NOT_FOUND',
      key: 'mcp:github:create_issue',
      ok: true,
      DEBUG: 'true',
      nothing: null,
    };
    const before = structuredClone(input);
    expect(redactor.redactValue(input)).toEqual({
      headers: { Authorization: 'Bearer ***', Accept: 'json' },
      args: ['--token', '***', '***', 'abcdef'],
      nested: [{ note: 'uses *** here', password: '***', api_key: '***' }],
      GITHUB_TOKEN: '${GITHUB_TOKEN}',
      max_tokens: 5,
      code: 'NOT_FOUND',
      key: 'mcp:github:create_issue',
      ok: true,
      DEBUG: '***',
      nothing: null,
    });
    expect(input).toEqual(before);
  });

  it('copies Errors with message, stack, cause and fields redacted, keeping their class', () => {
    const err = new BlitzError('INTERNAL', 'call failed with SECRET1234', {
      reason: 'X',
      problems: ['header Authorization: Bearer abcdefgh'],
      cause: new Error('fetch https://u:p@h/ failed'),
    });
    const copy = redactor.redactValue(err) as BlitzError;
    expect(copy).toBeInstanceOf(BlitzError);
    expect(copy).not.toBe(err);
    expect(copy.code).toBe('INTERNAL');
    expect(copy.message).toBe('call failed with ***');
    expect(copy.stack).not.toContain('SECRET1234');
    expect(copy.problems).toEqual(['header Authorization: Bearer ***']);
    expect((copy.cause as Error).message).toBe('fetch https://***@h/ failed');
    expect(err.message).toBe('call failed with SECRET1234');
  });

  it('survives cycles and writes other objects as JSON would', () => {
    const node: Record<string, unknown> = { name: 'SECRET1234', when: new Date(0), url: new URL('https://u:pw@h/?token=t') };
    node.self = node;
    const copy = redactor.redactValue(node) as Record<string, unknown>;
    expect(copy.name).toBe('***');
    expect(copy.when).toBe('1970-01-01T00:00:00.000Z');
    expect(copy.url).toBe('https://***@h/?token=***');
    expect(copy.self).toBe(copy);
  });

  it.each([42, false, null, undefined, 10n])('leaves %s as it is', (value) => {
    expect(redactor.redactValue(value)).toBe(value);
  });
});

describe('no planted secret survives', () => {
  const known = {
    env: 'ghp_envValue0123456789',
    header: 'Bearer hdr.token-0123456789',
    oauth: 'ya29.oauthAccessToken_0123',
    clientSecret: 'cs_live_9876543210',
  };
  const unknown = ['userinfoPass99', 'queryToken77', 'authLineCred55', 'jsonPassword33', 'bearerOnly11abc'];
  const redactor = new Redactor(Object.values(known));

  const planted = {
    log: [
      `spawn github-mcp with GITHUB_TOKEN=${known.env}`,
      `POST https://api.example.com/mcp Authorization: ${known.header}`,
      `refreshed token ${known.oauth} (expires in 3600s)`,
      `https://bob:${unknown[0]}@example.com/x?access_token=${unknown[1]}&page=1`,
      `Authorization: Token ${unknown[2]}`,
      `{"user":"bob","password":"${unknown[3]}"}`,
      `retry with bearer ${unknown[4]}`,
    ].join('\n'),
    request: { headers: { authorization: known.header }, body: `client_secret=${known.clientSecret}&code=x` },
    tokenAlone: known.header.split(' ')[1],
    error: new Error(`could not reach server: ${JSON.stringify({ token: known.oauth })}`),
  };

  it('finds none of them in the redacted output', () => {
    const out = JSON.stringify(redactor.redactValue(planted)) + String((redactor.redactValue(planted.error) as Error).stack);
    const secrets = [...Object.values(known), known.header.split(' ')[1] ?? '', ...unknown];
    for (const secret of secrets) expect(out).not.toContain(secret);
    expect(out).toContain('spawn github-mcp');
  });
});
