/**
 * Where a JSON text stops being JSON: line, column and what was expected. PHP's reason
 * ("Syntax error") names no place and JavaScript's parser rarely does, so this small scanner
 * walks the grammar (RFC 8259) and stops at the first byte that does not fit.
 */
export interface SyntaxPlace {
  line: number;
  column: number;
  problem: string;
}

class Stop extends Error {
  readonly at: number;
  constructor(at: number, problem: string) {
    super(problem);
    this.at = at;
  }
}

function scan(text: string): void {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const found = (): string => (i >= text.length ? 'the end of the file' : JSON.stringify(text[i]));
  const fail = (expected: string): never => {
    throw new Stop(i, `expected ${expected}, found ${found()}`);
  };
  const string = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail('the end of the string (a raw line break or control character is not allowed inside quotes)');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 4;
        else if (!'"\\/bfnrt'.includes(text[i] ?? 'x') || i >= text.length) fail('an escape such as \\" or \\n');
      }
      i++;
    }
    if (i >= text.length) fail('a closing quote');
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"')
          fail(text[i] === '}' ? 'another member after the comma (remove the trailing comma)' : 'a member name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail('":" after the member name');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('another value after the comma (remove the trailing comma)');
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('"," or "]"');
      }
    }
    if (c === '"') {
      string();
      return;
    }
    const literal = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (literal === null) fail('a value (object, list, string in double quotes, number, true, false or null)');
    i += literal![0].length;
  };
  value();
  ws();
  if (i < text.length) fail('the end of the file after the value');
}

/** The place of the first syntax error, or undefined when the text is JSON by this grammar. */
export function jsonSyntaxPlace(text: string): SyntaxPlace | undefined {
  // PHP's json_decode refuses a byte order mark (editors on Windows add one): name it.
  if (text.startsWith('\uFEFF'))
    return {
      line: 1,
      column: 1,
      problem: 'the file starts with a byte order mark (BOM), which JSON does not allow; save it as UTF-8 without BOM',
    };
  try {
    scan(text);
    return undefined;
  } catch (e) {
    // Nesting deeper than the call stack: no place to show (PHP reports the depth, not a place).
    if (e instanceof RangeError) return undefined;
    if (!(e instanceof Stop)) throw e;
    const before = text.slice(0, e.at);
    const line = before.split('\n').length;
    return { line, column: e.at - before.lastIndexOf('\n'), problem: e.message };
  }
}
