import { describe, expect, it } from 'vitest';
import { paramHeaderMismatch, paramHeadersOf, paramHeaderValues, ToolParamHeaders } from './param-headers.js';

const schema = (properties: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({ type: 'object', properties, ...rest });

describe('paramHeadersOf', () => {
  it('finds each marked property reached through properties, at any depth', () => {
    expect(
      paramHeadersOf(
        schema({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          target: schema({ dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' }, id: { type: 'integer', 'x-mcp-header': 'Id' } }),
          text: { type: 'string' },
        }),
      ),
    ).toEqual({
      headers: [
        { path: ['region'], header: 'Mcp-Param-Region' },
        { path: ['target', 'dry'], header: 'Mcp-Param-Dry-Run' },
        { path: ['target', 'id'], header: 'Mcp-Param-Id' },
      ],
    });
    expect(paramHeadersOf(schema({ text: { type: 'string' } }))).toEqual({ headers: [] });
    expect(paramHeadersOf(undefined)).toEqual({ headers: [] });
  });

  it.each([
    ['on a number', schema({ n: { type: 'number', 'x-mcp-header': 'N' } }), /only on a string, integer or boolean/],
    ['on an object', schema({ o: { type: 'object', 'x-mcp-header': 'O' } }), /only on a string, integer or boolean/],
    ['not a token', schema({ r: { type: 'string', 'x-mcp-header': 'Re gion' } }), /is not an HTTP token/],
    ['empty', schema({ r: { type: 'string', 'x-mcp-header': '' } }), /is not an HTTP token/],
    [
      'twice, whatever the case',
      schema({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } }),
      /declared twice/,
    ],
    [
      'under items',
      schema({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
      /reached through properties alone/,
    ],
    ['in a $defs', schema({}, { $defs: { x: { type: 'string', 'x-mcp-header': 'X' } } }), /reached through properties alone/],
    ['under anyOf', schema({ v: { anyOf: [{ type: 'string', 'x-mcp-header': 'V' }] } }), /reached through properties alone/],
    ['on the root', { type: 'string', 'x-mcp-header': 'Root' }, /reached through properties alone/],
  ])('makes the tool invalid when marked %s', (_what, inputSchema, reason) => {
    const found = paramHeadersOf(inputSchema);
    expect('invalid' in found && found.invalid).toMatch(reason);
  });
});

describe('paramHeaderValues', () => {
  const headers = [
    { path: ['region'], header: 'Mcp-Param-Region' },
    { path: ['target', 'dry'], header: 'Mcp-Param-Dry-Run' },
    { path: ['target', 'id'], header: 'Mcp-Param-Id' },
  ];

  it('sends strings, booleans and integers as the revision writes them, and nothing for an argument absent or null', () => {
    expect(paramHeaderValues(headers, { region: 'eu-west', target: { dry: false, id: 42 } })).toEqual([
      ['Mcp-Param-Region', 'eu-west'],
      ['Mcp-Param-Dry-Run', 'false'],
      ['Mcp-Param-Id', '42'],
    ]);
    expect(paramHeaderValues(headers, { region: null, target: {} })).toEqual([]);
    expect(paramHeaderValues(headers, undefined)).toEqual([]);
  });

  it('encodes what is not plain printable ASCII, and a value that looks encoded, in =?base64?…?=', () => {
    const b64 = (v: string) => `=?base64?${Buffer.from(v).toString('base64')}?=`;
    expect(paramHeaderValues(headers.slice(0, 1), { region: 'Zürich' })).toEqual([['Mcp-Param-Region', b64('Zürich')]]);
    expect(paramHeaderValues(headers.slice(0, 1), { region: ' padded ' })).toEqual([['Mcp-Param-Region', b64(' padded ')]]);
    expect(paramHeaderValues(headers.slice(0, 1), { region: '=?base64?abc?=' })).toEqual([['Mcp-Param-Region', b64('=?base64?abc?=')]]);
  });
});

describe('paramHeaderMismatch', () => {
  const headers = [
    { path: ['region'], header: 'Mcp-Param-Region' },
    { path: ['target', 'dry'], header: 'Mcp-Param-Dry-Run' },
    { path: ['target', 'id'], header: 'Mcp-Param-Id' },
  ];
  const args = { region: 'Zürich', target: { dry: false, id: 42 } };
  const sent = (values: Record<string, string>) => (name: string) => values[name];

  it('takes what paramHeaderValues sends, an integer written as a decimal, and headers without their argument', () => {
    const values = Object.fromEntries(paramHeaderValues(headers, args).map(([name, value]) => [name.toLowerCase(), value]));
    expect(paramHeaderMismatch(headers, args, sent(values))).toBeUndefined();
    expect(paramHeaderMismatch(headers, args, sent({ ...values, 'mcp-param-id': '42.0' }))).toBeUndefined();
    expect(
      paramHeaderMismatch(headers, { target: { dry: true, id: null } }, sent({ 'mcp-param-dry-run': 'true', 'mcp-param-region': 'x' })),
    ).toBeUndefined();
  });

  it('names a header missing, different or broken, with the argument it mirrors', () => {
    expect(paramHeaderMismatch(headers, { region: 'eu' }, sent({}))).toBe(
      'the body carries region = "eu" but the Mcp-Param-Region header is missing',
    );
    expect(paramHeaderMismatch(headers, { target: { dry: false } }, sent({ 'mcp-param-dry-run': 'False' }))).toBe(
      'the Mcp-Param-Dry-Run header says "False" but the body carries target.dry = false',
    );
    expect(paramHeaderMismatch(headers, { target: { id: 42 } }, sent({ 'mcp-param-id': '43' }))).toMatch(/says "43"/);
    expect(paramHeaderMismatch(headers, { region: 'eu' }, sent({ 'mcp-param-region': '=?base64?%%?=' }))).toMatch(/not valid base64/);
  });
});

describe('ToolParamHeaders', () => {
  it('learns each listed tool’s headers, forgets a tool listed again without them, and names the invalid ones', () => {
    const known = new ToolParamHeaders();
    const marked = { name: 'regional', inputSchema: schema({ region: { type: 'string', 'x-mcp-header': 'Region' } }) };
    const bad = { name: 'bad', inputSchema: schema({ n: { type: 'number', 'x-mcp-header': 'N' } }) };
    expect(known.learn([marked, bad, { name: 'plain', inputSchema: schema({}) }])).toEqual([
      { name: 'bad', invalid: expect.stringMatching(/n: x-mcp-header is allowed only on a string/) },
    ]);
    expect(known.of('regional')).toEqual([{ path: ['region'], header: 'Mcp-Param-Region' }]);
    expect(known.of('plain')).toEqual([]);
    known.learn([{ name: 'regional', inputSchema: schema({ region: { type: 'string' } }) }]);
    expect(known.of('regional')).toEqual([]);
  });
});
