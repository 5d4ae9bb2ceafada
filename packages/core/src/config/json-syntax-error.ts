/** Where JSON text first breaks the grammar, and what was expected there; no byte of the text. */
export interface JsonSyntaxError {
  line: number;
  column: number;
  /** e.g. `expected a value`, `unexpected end of the file`: words of ours, never the text's. */
  what: string;
}

type Context = 'value' | 'key' | 'colon' | 'afterValue';

/**
 * Finds the first syntax error of text `JSON.parse` refused. V8's message quotes the text
 * (`Unexpected token 'r', "root:*:202"...`), and a project's `.mcp.json` may be a link to
 * any file of the user's: a problem names the line and column instead (issue 25 point 10).
 * Iterative, so a file nested thousands deep is no deeper a stack.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError {
  const stack: Array<'{' | '['> = [];
  let context: Context = 'value';
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const at = (what: string): JsonSyntaxError => ({ ...lineColumn(text, i), what });
  for (;;) {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
    if (i >= text.length) {
      // Whole: JSON.parse took it, so the caller had another reason; say where the text ends.
      return at(context === 'afterValue' && stack.length === 0 ? 'no syntax error found' : 'unexpected end of the file');
    }
    const c = text[i]!;
    if (context === 'afterValue') {
      const top = stack.at(-1);
      if (top === undefined) return at('expected the end of the file after the value');
      if (c === ',') {
        i++;
        context = top === '{' ? 'key' : 'value';
      } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
        i++;
        stack.pop();
      } else return at(top === '{' ? 'expected "," or "}"' : 'expected "," or "]"');
      continue;
    }
    if (context === 'colon') {
      if (c !== ':') return at('expected ":" after the key');
      i++;
      context = 'value';
      continue;
    }
    if (context === 'key') {
      if (c === '}' && text[lastNonSpace(text, i)] === '{') {
        i++;
        stack.pop();
        context = 'afterValue';
        continue;
      }
      if (c !== '"') return at('expected a key in double quotes');
      const end = stringEnd(text, i);
      if (end < 0) return at('expected a complete string');
      i = end;
      context = 'colon';
      continue;
    }
    // A value.
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      context = c === '{' ? 'key' : 'value';
      if (c === '[') {
        while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
        if (text[i] === ']') {
          i++;
          stack.pop();
          context = 'afterValue';
        }
      }
      continue;
    }
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return at('expected a complete string');
      i = end;
    } else {
      const word = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
      if (!word) return at('expected a value');
      i += word[0].length;
    }
    context = 'afterValue';
  }
}

/** The offset just past a string starting at `start`, or -1 when it is cut off or holds a raw control character or bad escape. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) return -1;
    if (text[i] === '"') return i + 1;
    if (text[i] === '\\') {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -1;
        i += 5;
      } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i++;
      else return -1;
    }
  }
  return -1;
}

function lastNonSpace(text: string, before: number): number {
  let i = before - 1;
  while (i >= 0 && ' \t\n\r'.includes(text[i]!)) i--;
  return i;
}

/** 1-based line and column (in characters) of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}
