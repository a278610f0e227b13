/**
 * The helper's user-function catalogue (spec 05 §8.3), as an adapter on the extractor's own
 * function library (src/functions/): the digests, `hash`, `hash_hmac`, `date`, `strtotime` and
 * `time` are the library's functions. The helper differs from the extractor here, on purpose,
 * because the UI builder was written against it:
 *
 * - `hash_hmac(algo, key, message)`: key and message are swapped relative to PHP (the helper's
 *   bug, copied: the UI's saved configurations rely on the order it documents).
 * - `ifempty(test, fallback)`: `fallback` when `test` is Python-falsy, otherwise **null** (the
 *   helper's bug, copied for the same reason; the extractor returns `test`).
 * - `sprintf`: Python `%` formatting, not PHP's.
 * - `concat`/`implode`: strings only (Python `str.join`), a TypeError otherwise.
 * - `strtotime`: an unparsable text fails (`int('')`), where the extractor returns false.
 * - `string_to_date`: helper-only; relative dates use the extractor's strtotime grammar.
 * - `date`/`strtotime` with a falsy second argument use the current time.
 */
import { getFunction, type FunctionEnv } from '../functions/index.ts';
import { findHashAlgorithm } from '../functions/hashAlgorithms.ts';
import { civilFromTimestamp, daysFromCivil, daysInMonth } from '../functions/strtotime/calendar.ts';
import { phpStrtotime } from '../functions/strtotime/index.ts';
import type { Value } from '../php/value.ts';
import { HelperError, PY, userError, valueError } from './envelope.ts';
import { pythonPercentFormat, pythonStrftime } from './pythonFormat.ts';
import { pythonRepr, pythonTruthy, pythonTypeName } from './pythonValues.ts';

interface HelperFunction {
  min: number;
  max: number;
  call(args: Value[], env: FunctionEnv): Value;
}

/** A function of the extractor's library, by name. */
function library(name: string, args: Value[], env: FunctionEnv): Value {
  return getFunction(name)!.call(args, env);
}

/**
 * `hash`/`hash_hmac`: where PHP returns false (an unknown algorithm; a checksum for an HMAC) its
 * CLI prints a warning on stderr, and the helper fails with it (a user error), not `false`.
 */
function digest(name: 'hash' | 'hash_hmac', args: Value[], env: FunctionEnv): Value {
  const result = library(name, args, env);
  if (result !== false) return result;
  const algo = String(args[0]);
  const why = findHashAlgorithm(algo.toLowerCase()) ? 'Non-cryptographic hashing algorithm' : 'Unknown hashing algorithm';
  throw userError(`Error while performing ${name} function: PHP Warning:  ${name}(): ${why}: ${algo} in Command line code on line 1`);
}

function text(v: Value, fn: string): string {
  if (typeof v !== 'string') throw new HelperError(PY.attribute, `'${pythonTypeName(v)}' object has no attribute 'encode' (in ${fn})`);
  return v;
}

function join(separator: string, items: readonly Value[]): string {
  items.forEach((item, i) => {
    if (typeof item !== 'string')
      throw new HelperError(PY.type, `sequence item ${i}: expected str instance, ${pythonTypeName(item)} found`);
  });
  return items.join(separator);
}

function nowOr(v: Value | undefined, env: FunctionEnv): Value {
  return pythonTruthy(v) ? v! : Math.floor(env.nowMs() / 1000);
}

/** Python's `datetime` holds the years 1 to 9999: a date outside them is its ValueError. */
function checkedPythonDate(seconds: bigint): Date {
  const { y } = civilFromTimestamp(seconds);
  if (y < 1 || y > 9999) throw valueError(`year ${y} is out of range`);
  return new Date(Number(seconds) * 1000);
}

function stringToDate(dateString: Value, format: Value | undefined, env: FunctionEnv): string {
  const input = text(dateString, 'string_to_date');
  const fmt = format === undefined ? '%Y-%m-%d' : text(format, 'string_to_date');
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.trim());
  let seconds: bigint | false;
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    // A calendar date only (not 9999-99-99, which would roll over into year 10007).
    seconds = m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m) ? BigInt(daysFromCivil(y, m, d)) * 86400n : false;
  } else seconds = phpStrtotime(input, BigInt(Math.floor(env.nowMs() / 1000)));
  if (seconds === false) throw valueError(`Could not parse the date ${pythonRepr(input)}`);
  return pythonStrftime(fmt, checkedPythonDate(seconds));
}

const CATALOGUE: Record<string, HelperFunction> = {
  base64_encode: { min: 1, max: 1, call: (a, env) => library('base64_encode', [text(a[0]!, 'base64_encode')], env) },
  concat: { min: 0, max: Infinity, call: (a) => join('', a) },
  date: { min: 1, max: 2, call: (a, env) => library('date', [a[0]!, nowOr(a[1], env)], env) },
  hash: { min: 2, max: 2, call: (a, env) => digest('hash', [text(a[0]!, 'hash'), text(a[1]!, 'hash')], env) },
  // Helper order (algo, key, message) → PHP order (algo, message, key).
  hash_hmac: { min: 3, max: 3, call: (a, env) => digest('hash_hmac', [text(a[0]!, 'hash_hmac'), a[2]!, a[1]!], env) },
  ifempty: { min: 2, max: 2, call: (a) => (pythonTruthy(a[0]) ? null : a[1]!) },
  implode: {
    min: 2,
    max: 2,
    call: (a) => {
      if (!Array.isArray(a[1])) throw new HelperError(PY.type, `can only join an iterable`);
      return join(text(a[0]!, 'implode'), a[1]);
    },
  },
  md5: { min: 1, max: 1, call: (a, env) => library('md5', [text(a[0]!, 'md5')], env) },
  sha1: { min: 1, max: 1, call: (a, env) => library('sha1', [text(a[0]!, 'sha1')], env) },
  sprintf: { min: 1, max: Infinity, call: (a) => pythonPercentFormat(text(a[0]!, 'sprintf'), a.slice(1)) },
  string_to_date: { min: 1, max: 2, call: (a, env) => stringToDate(a[0]!, a[1], env) },
  strtotime: {
    min: 1,
    max: 2,
    call: (a, env) => {
      const r = library('strtotime', [a[0]!, nowOr(a[1], env)], env);
      // PHP's false printed by the CLI is "", and the helper's int("") fails.
      if (r === false) throw valueError("invalid literal for int() with base 10: ''");
      return r;
    },
  },
  time: { min: 0, max: 0, call: (_a, env) => Math.floor(env.nowMs() / 1000) },
};

export const HELPER_FUNCTION_NAMES = Object.keys(CATALOGUE).sort();

export function callHelperFunction(name: Value, args: Value[], env: FunctionEnv): Value {
  const fn = typeof name === 'string' && Object.hasOwn(CATALOGUE, name) ? CATALOGUE[name]! : undefined;
  if (!fn) {
    throw valueError(
      `Specified user function [${typeof name === 'string' ? name : String(name)}] is not supported! Supported functions are [${HELPER_FUNCTION_NAMES.map(pythonRepr).join(', ')}]`,
    );
  }
  if (args.length < fn.min || args.length > fn.max) {
    throw new HelperError(
      PY.type,
      `${String(name)}() takes ${fn.min === fn.max ? fn.min : `${fn.min} to ${fn.max}`} arguments but ${args.length} were given`,
    );
  }
  return fn.call(args, env);
}
