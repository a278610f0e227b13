/**
 * `recursionFilter` (spec 03 §4.3): `&` binds tighter than `|`, no escaping, no parentheses,
 * whitespace significant.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { isNumericString } from '../php/isNumeric.ts';
import { phpString } from '../php/stringConversion.ts';
import { JsonObject, PhpArray, type Value } from '../php/value.ts';
import { lookup } from '../php/pathLookup.ts';

type Condition = (record: Value) => boolean;

const OPERATORS = ['==', '!=', '>=', '<=', '~~', '!~'] as const;

function likePattern(pattern: string): RegExp {
  const body = pattern
    .split('%')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^\\n]*');
  return new RegExp(`^${body}$`, 's');
}

/** Numeric comparison of two numeric strings, else byte-wise (UTF-8) comparison. */
function compare(left: string, right: string): number {
  if (isNumericString(left) && isNumericString(right)) {
    const a = Number(left);
    const b = Number(right);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8'));
}

function asObject(record: Value): Value {
  if (record instanceof Map) return record;
  if (Array.isArray(record)) return new PhpArray(record.map((v, i) => [String(i), v] as const));
  if (record === null) return new JsonObject();
  return new JsonObject([['scalar', record]]);
}

function condition(text: string, configPath: string | undefined): Condition {
  let op: string | undefined;
  let at = Infinity;
  for (const candidate of OPERATORS) {
    const i = text.indexOf(candidate);
    if (i >= 0 && i < at) {
      at = i;
      op = candidate;
    }
  }
  if (op === undefined) {
    for (const candidate of ['>', '<']) {
      const i = text.indexOf(candidate);
      if (i >= 0 && i < at) {
        at = i;
        op = candidate;
      }
    }
  }
  if (op === undefined) {
    throw new UserError(
      `Error creating a filter from ${text}: Operator couldn't be determined. Please use one of [==, !=, >=, <=, >, <, ~~, !~, >, <]`,
      configPath === undefined ? {} : { configPath },
    );
  }
  const parts = text.split(op);
  const column = parts[0]!;
  const expected = parts[1] ?? '';
  const operator = op;
  const like = operator === '~~' || operator === '!~' ? likePattern(expected) : undefined;
  return (record) => {
    const found = lookup(column, asObject(record));
    if (found instanceof JsonObject) throw new ApplicationError(`recursionFilter column '${column}' is an object`);
    const left = phpString(found);
    switch (operator) {
      case '==':
        return left === expected;
      case '!=':
        return left !== expected;
      case '>=':
        return compare(left, expected) >= 0;
      case '<=':
        return compare(left, expected) <= 0;
      case '>':
        return compare(left, expected) > 0;
      case '<':
        return compare(left, expected) < 0;
      case '~~':
        return like!.test(left);
      default:
        return !like!.test(left);
    }
  };
}

/** Parses a filter expression; `&` binds tighter than `|` (`a|b&c` = `a | (b & c)`). */
export function parseRecursionFilter(text: string, configPath?: string): Condition {
  const alternatives = text.split('|').map((alt) => alt.split('&').map((c) => condition(c, configPath)));
  return (record) => alternatives.some((all) => all.every((c) => c(record)));
}
