/**
 * Shell words of a curl command line, as the helper splits them: Python's `shlex.split`
 * (POSIX mode, no comments). Single quotes keep everything; inside double quotes a backslash
 * escapes only `"` and `\`; outside quotes it escapes any character. Written here instead of
 * taken from npm (README design notes): the messages must be the helper's
 * (`No closing quotation`, `No escaped character`), and the usual packages expand `$VAR` or turn
 * `|`, `;`, `>` into operator objects, which a header value must never be.
 */
import { valueError } from './envelope.ts';

const WHITESPACE = /[ \t\r\n]/;

export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (WHITESPACE.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw valueError('No escaped character');
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw valueError('No closing quotation');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= line.length) throw valueError('No closing quotation');
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
