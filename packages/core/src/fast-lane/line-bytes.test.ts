import { describe, expect, it } from 'vitest';
import { holdsAt, idAt, idBefore, methodAt } from './line-bytes.js';

const b = (text: string) => Buffer.from(text);

describe('line-bytes', () => {
  it('reads an id forward: an integer, negative too, or a string with nothing escaped; and where it ends', () => {
    expect(idAt(b('12,'), 0, 3)).toEqual({ value: 12, at: 2 });
    expect(idAt(b(':-7}'), 1, 4)).toEqual({ value: -7, at: 3 });
    expect(idAt(b('"a b-1",'), 0, 8)).toEqual({ value: 'a b-1', at: 7 });
    for (const text of ['"a\\"b",', '"é",', '-,', 'x1,', '"open']) expect(idAt(b(text), 0, text.length)).toBeUndefined();
  });

  it('reads an id backward from its end the same way; and where it starts', () => {
    expect(idBefore(b('"id":12'), 0, 7)).toEqual({ value: 12, at: 5 });
    expect(idBefore(b('"id":-3'), 0, 7)).toEqual({ value: -3, at: 5 });
    expect(idBefore(b('"id":"x y"'), 0, 10)).toEqual({ value: 'x y', at: 5 });
    // An escaped quote ends the scan where `"id":` is not: the caller finds no key before it.
    expect(idBefore(b('"id":"a\\"b"'), 0, 11)).toEqual({ value: 'b', at: 8 });
    for (const text of ['"id":', '"id":-', '"id":"é"']) expect(idBefore(b(text), 0, text.length)).toBeUndefined();
  });

  it('reads a method name up to its quote; an empty one, or one with a space or an escape, is none', () => {
    expect(methodAt(b('tools/call",'), 0, 12)).toEqual({ value: 'tools/call', at: 10 });
    for (const text of ['",', 'a b",', 'a\\"b",', 'open']) expect(methodAt(b(text), 0, text.length)).toBeUndefined();
  });

  it('finds ASCII at an offset, within the end given', () => {
    expect(holdsAt(b('xx{"a"'), 2, 6, b('{"a"'))).toBe(true);
    expect(holdsAt(b('xx{"a"'), 2, 5, b('{"a"'))).toBe(false);
    expect(holdsAt(b('{"a"'), -1, 4, b('{"a"'))).toBe(false);
  });
});
