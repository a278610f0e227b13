/** Time functions: time, date, strtotime (spec 02 §11.4, §11.6, §11.7). UTC only. */
import type { Value } from '../php/value.ts';
import { phpInt } from '../php/intval.ts';
import { zppLong, zppString } from './convert.ts';
import { phpDate } from './date.ts';
import { registerFunction, type FunctionEnv } from './registry.ts';
import { phpStrtotime } from './strtotime/index.ts';

const GROUP = 'time';

function nowSeconds(env: FunctionEnv): bigint {
  return BigInt(Math.floor(env.nowMs() / 1000));
}

/** The optional timestamp argument: now when omitted, `undefined` when PHP rejects it. */
function timestampArg(v: Value | undefined, env: FunctionEnv): bigint | undefined {
  return v === undefined ? nowSeconds(env) : zppLong(v);
}

registerFunction({
  name: 'time',
  group: GROUP,
  description: 'time(): the current Unix time in seconds (int).',
  minArgs: 0,
  maxArgs: 0,
  example: { args: [] },
  call(_args, env) {
    return phpInt(nowSeconds(env));
  },
});

registerFunction({
  name: 'date',
  group: GROUP,
  description:
    'date(format [, timestamp]): the timestamp (default now) formatted in UTC with PHP 7.4 format characters; u and v are always zeros.',
  minArgs: 1,
  maxArgs: 2,
  onBadArity: { yields: false },
  example: { args: ['Y-m-d\\TH:i:s\\Z', { function: 'strtotime', args: ['-1 day'] }] },
  call(args, env) {
    const format = zppString(args[0]!);
    const ts = timestampArg(args[1], env);
    if (format === undefined || ts === undefined) return false;
    return phpDate(format, ts);
  },
});

registerFunction({
  name: 'strtotime',
  group: GROUP,
  description:
    'strtotime(text [, base]): Unix time (int) of an absolute or relative date text, relative to base (default now), in UTC; false when unparsable.',
  minArgs: 1,
  maxArgs: 2,
  onBadArity: { yields: false },
  example: { args: ['-7 days', 1714521600] },
  call(args, env) {
    const text = zppString(args[0]!);
    const base = timestampArg(args[1], env);
    if (text === undefined || base === undefined) return false;
    const r = phpStrtotime(text, base);
    return r === false ? false : phpInt(r);
  },
});
