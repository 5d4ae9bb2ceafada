/** A key's place in a JSON document: the keys from the top (an array's items by index). */
export type JsonPath = ReadonlyArray<string | number>;

type Frame = { object: true; key: string | undefined; expectKey: boolean; keys: Map<string, number> } | { object: false; index: number };

/** A key written twice in one object: JSON.parse keeps the last, silently. */
export interface DuplicateKey {
  key: string;
  line: number;
  firstLine: number;
}

/**
 * The line of each object key in JSON text, by its path, so that problems found in a
 * project's `.mcp.json` can name the line they are about. The text has parsed already: the
 * scan takes it as valid JSON. A key written twice is found where it is written last, the
 * one JSON.parse keeps.
 */
export class JsonLocator {
  readonly #lines = new Map<string, number>();
  /** Keys written more than once in the same object, where each repeat is. */
  readonly duplicates: DuplicateKey[] = [];

  constructor(text: string) {
    let line = 1;
    const stack: Frame[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\n') line++;
      else if (c === '{') stack.push({ object: true, key: undefined, expectKey: true, keys: new Map() });
      else if (c === '[') stack.push({ object: false, index: 0 });
      else if (c === '}' || c === ']') stack.pop();
      else if (c === ',') {
        const top = stack.at(-1);
        if (top?.object) top.expectKey = true;
        else if (top) top.index++;
      } else if (c === '"') {
        // JSON strings hold no raw line break: the line stays the same to the closing quote.
        let end = i + 1;
        while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
        const top = stack.at(-1);
        if (top?.object && top.expectKey) {
          top.key = JSON.parse(text.slice(i, end + 1)) as string;
          top.expectKey = false;
          const first = top.keys.get(top.key);
          if (first === undefined) top.keys.set(top.key, line);
          else this.duplicates.push({ key: top.key, line, firstLine: first });
          this.#lines.set(JSON.stringify(stack.map((f) => (f.object ? f.key : f.index))), line);
        }
        i = end;
      }
    }
  }

  /** The line of the key at this path; undefined when it is not written. */
  line(path: JsonPath): number | undefined {
    return this.#lines.get(JSON.stringify(path));
  }
}
