/** String functions: concat, implode, ifempty, sprintf, urlencode (spec 02 §11.4, §11.8). */
import { isEmpty, type Value } from '../php/value.ts';
import { isPhpArrayValue, normalizeBytes, phpBytes, valueString, zppString } from './convert.ts';
import { registerFunction } from './registry.ts';
import { phpSprintf } from './sprintf.ts';

const GROUP = 'string';

registerFunction({
  name: 'concat',
  group: GROUP,
  description:
    'concat(...values): the PHP string forms of all arguments joined; concat() is "". A list is "Array"; an object is an internal error.',
  minArgs: 0,
  example: { args: ['Bearer ', { attr: '#token' }], attr: { '#token': 'abc123' } },
  call(args) {
    return normalizeBytes(args.map(valueString).join(''));
  },
});

function implodeList(glue: string, pieces: Value): string {
  const items = Array.isArray(pieces) ? pieces : [];
  return normalizeBytes(items.map(valueString).join(glue));
}

registerFunction({
  name: 'implode',
  group: GROUP,
  description:
    'implode(glue, list) | implode(list) | implode(list, glue) (legacy order): the elements in PHP string form joined by glue; ' +
    'a nested list element is "Array". Without any list argument the result is null.',
  minArgs: 1,
  maxArgs: 2,
  example: { args: [',', ['a', 'b', 'c']] },
  call(args) {
    const [a, b] = args as [Value, Value | undefined];
    if (b === undefined) return isPhpArrayValue(a) ? implodeList('', a) : null;
    if (isPhpArrayValue(a)) return implodeList(valueString(b), a);
    if (isPhpArrayValue(b)) return implodeList(valueString(a), b);
    return null;
  },
});

registerFunction({
  name: 'ifempty',
  group: GROUP,
  description: 'ifempty(a, b): a when it is not PHP-empty, else b. Empty: "", "0", 0, 0.0, null, false, []. Exactly two arguments.',
  minArgs: 2,
  maxArgs: 2,
  onBadArity: { error: (name) => `Bad argument count for function '${name}'!` },
  example: { args: [{ attr: 'since' }, '2024-01-01'], attr: { since: '' } },
  call(args) {
    return isEmpty(args[0]) ? args[1]! : args[0]!;
  },
});

registerFunction({
  name: 'sprintf',
  group: GROUP,
  description:
    'sprintf(format, ...values): PHP 7.4 formatting (%s %d %u %f %F %e %E %g %G %b %o %x %X %c %%, argnum$, flags, width, precision); too few values yield false.',
  minArgs: 1,
  onBadArity: { yields: false },
  example: { args: ['%s/users?page=%03d', 'v1', 7] },
  call(args) {
    return phpSprintf(args[0]!, args.slice(1));
  },
});

function urlencode(s: string): string {
  let out = '';
  for (const b of phpBytes(s)) {
    if ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2e || b === 0x5f) {
      out += String.fromCharCode(b);
    } else if (b === 0x20) {
      out += '+';
    } else {
      out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

registerFunction({
  name: 'urlencode',
  group: GROUP,
  description:
    'urlencode(string): letters, digits and "-_." kept, space as "+", every other byte as %XX (upper case). Only in placeholder functions.',
  minArgs: 1,
  maxArgs: 1,
  placeholderOnly: true,
  example: { args: ['a b&c/d'] },
  call(args) {
    const s = zppString(args[0]!);
    return s === undefined ? null : urlencode(s);
  },
});
