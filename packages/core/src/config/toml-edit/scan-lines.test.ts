import { describe, expect, it } from 'vitest';
import { detectEol, scanLines, type TomlLine } from './scan-lines.js';

const kinds = (text: string) => scanLines(text).map(describeLine);

function describeLine(line: TomlLine): string {
  if (line.kind === 'table') return `${line.array ? '[[' : '['}${line.path.join('|')}${line.array ? ']]' : ']'}`;
  if (line.kind === 'key-value') return `${line.path.join('|')}=`;
  return line.kind;
}

describe('scanLines', () => {
  it('classifies lines and reads keys however they are quoted', () => {
    const text = '# c\n\n[ a . "b c" ]\n[[ mcp.servers ]] # x\n"na\\u006De" = 1\n\'lit\' = 2\nx.y = 3\n  \t\n';
    expect(kinds(text)).toEqual(['comment', 'blank', '[a|b c]', '[[mcp|servers]]', 'name=', 'lit=', 'x|y=', 'blank']);
  });

  it('keeps a multi-line basic string holding header-looking text on its key line', () => {
    const text = 'a = """\n[[mcp.servers]]\nname = "x" \\""" still inside\n"""\n[b]\n';
    expect(kinds(text)).toEqual(['a=', '[b]']);
  });

  it('keeps a multi-line literal string on its key line', () => {
    expect(kinds("a = '''\n[mcp.servers.env]\n'''\nb = 1\n")).toEqual(['a=', 'b=']);
  });

  it('takes up to two quotes before the closing delimiter as content', () => {
    const text = 'a = """x"""""\nb = \'\'\'y\'\'\'\'\'\nc = ""\n';
    const lines = scanLines(text);
    expect(kinds(text)).toEqual(['a=', 'b=', 'c=']);
    const first = lines[0] as Extract<TomlLine, { kind: 'key-value' }>;
    expect(text.slice(first.valueStart, first.valueEnd)).toBe('"""x"""""');
  });

  it('reads a multi-line array with comments and brackets inside strings as one line', () => {
    const text = 'args = [\n  "a]", # a comment with ] and "\n  \'[[b]]\',\n  [1, 2], { k = "}" },\n]\n[c]\n';
    expect(kinds(text)).toEqual(['args=', '[c]']);
  });

  it('finds the value span of a bare token before a trailing comment', () => {
    const text = 'disabled   =   false   # flip me\nwhen = 1979-05-27 07:32:00Z\n';
    const [flag, when] = scanLines(text) as Extract<TomlLine, { kind: 'key-value' }>[];
    expect(text.slice(flag!.valueStart, flag!.valueEnd)).toBe('false');
    expect(text.slice(when!.valueStart, when!.valueEnd)).toBe('1979-05-27 07:32:00Z');
  });

  it('covers the text exactly, CRLF and a missing final newline included', () => {
    const text = '\uFEFFa = 1\r\n\r\n[b]\r\nc = """\r\nx\r\n"""\r\nd = 2';
    const lines = scanLines(text);
    expect(lines.map((l) => text.slice(l.start, l.end)).join('')).toBe(text);
    expect(kinds(text)).toEqual(['a=', 'blank', '[b]', 'c=', 'd=']);
    expect(lines.map((l) => l.terminated)).toEqual([true, true, true, true, false]);
  });

  it('records the indentation of a key line', () => {
    const [line] = scanLines('\t  command = "x"\n');
    expect(line?.kind === 'key-value' && line.indent).toBe('\t  ');
  });
});

describe('detectEol', () => {
  it.each([
    ['', '\n'],
    ['a = 1', '\n'],
    ['a = 1\nb = 2\r\n', '\n'],
    ['a = 1\r\nb = 2\n', '\r\n'],
  ])('%j uses %j', (text, eol) => {
    expect(detectEol(text)).toBe(eol);
  });
});
