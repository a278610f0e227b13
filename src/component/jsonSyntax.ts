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

/** Walks one JSON text; throws a `Stop` at the first byte that does not fit. */
class Scanner {
  private readonly text: string;
  private i = 0;

  constructor(text: string) {
    this.text = text;
  }

  document(): void {
    this.value();
    this.ws();
    if (this.i < this.text.length) this.fail('the end of the file after the value');
  }

  private ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  private fail(expected: string): never {
    const found = this.i >= this.text.length ? 'the end of the file' : JSON.stringify(this.text[this.i]);
    throw new Stop(this.i, `expected ${expected}, found ${found}`);
  }

  private string(): void {
    const { text } = this;
    this.i++;
    while (this.i < text.length && text[this.i] !== '"') {
      const c = text.charCodeAt(this.i);
      if (c < 0x20) this.fail('the end of the string (a raw line break or control character is not allowed inside quotes)');
      if (text[this.i] === '\\') {
        this.i++;
        if (text[this.i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 1, this.i + 5))) this.i += 4;
        else if (!'"\\/bfnrt'.includes(text[this.i] ?? 'x') || this.i >= text.length) this.fail('an escape such as \\" or \\n');
      }
      this.i++;
    }
    if (this.i >= text.length) this.fail('a closing quote');
    this.i++;
  }

  /**
   * Objects and lists are read here rather than in methods of their own: one stack frame per
   * nesting level, so a deeply nested text reaches the call stack limit no sooner.
   */
  private value(): void {
    const { text } = this;
    this.ws();
    const c = text[this.i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      this.i++;
      this.ws();
      if (text[this.i] === close) {
        this.i++;
        return;
      }
      for (;;) {
        this.ws();
        if (c === '{') this.memberName();
        else if (text[this.i] === ']') this.fail('another value after the comma (remove the trailing comma)');
        this.value();
        this.ws();
        if (text[this.i] === ',') {
          this.i++;
          continue;
        }
        if (text[this.i] === close) {
          this.i++;
          return;
        }
        this.fail(`"," or "${close}"`);
      }
    }
    if (c === '"') {
      this.string();
      return;
    }
    const literal = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(this.i, this.i + 400));
    if (literal === null) this.fail('a value (object, list, string in double quotes, number, true, false or null)');
    this.i += literal[0].length;
  }

  /** `"name"` and the colon of an object member. */
  private memberName(): void {
    const { text } = this;
    if (text[this.i] !== '"')
      this.fail(text[this.i] === '}' ? 'another member after the comma (remove the trailing comma)' : 'a member name in double quotes');
    this.string();
    this.ws();
    if (text[this.i] !== ':') this.fail('":" after the member name');
    this.i++;
  }
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
    new Scanner(text).document();
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
