/**
 * How many requests the job runner may have on the wire at once (per host), beyond the
 * reference (which is strictly sequential):
 *
 * - `parameters.api.http.concurrency`: a positive integer;
 * - environment variable `EX_GENERIC_CONCURRENCY` (wins over the configuration);
 * - default 10.
 *
 * 1 reproduces the sequential reference exactly. Any value keeps the order of effects (rows,
 * tables, state, log lines, which error wins) identical to the sequential run: only requests
 * whose parameters are known in advance (the first request of upcoming child job instances)
 * are sent early; see prefetch.ts.
 */
import { UserError } from '../errors/UserError.ts';
import { member, PhpFloat, type Value } from '../php/value.ts';

export const DEFAULT_CONCURRENCY = 10;
/** The keep-alive agents open at most 64 sockets per host (transport.ts). */
export const MAX_CONCURRENCY = 64;

function positiveInt(v: Value | undefined): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v >= 1 ? v : undefined;
  if (typeof v === 'bigint') return v >= 1n ? Number(v) : undefined;
  if (v instanceof PhpFloat && Number.isInteger(v.value)) return v.value >= 1 ? v.value : undefined;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) {
    const n = Number(v);
    return n >= 1 ? n : undefined;
  }
  return undefined;
}

/** `api` is the raw `parameters.api` section. */
export function concurrencyOf(api: Value | undefined, env: NodeJS.ProcessEnv): number {
  const fromEnv = env['EX_GENERIC_CONCURRENCY'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const n = positiveInt(fromEnv);
    if (n === undefined) throw new UserError(`EX_GENERIC_CONCURRENCY must be a positive integer, '${fromEnv}' given.`);
    return Math.min(n, MAX_CONCURRENCY);
  }
  const configured = member(member(api, 'http'), 'concurrency');
  if (configured === undefined || configured === null || configured === '') return DEFAULT_CONCURRENCY;
  const n = positiveInt(configured);
  if (n === undefined) {
    throw new UserError("The 'concurrency' option must be a positive integer.", { configPath: 'parameters.api.http.concurrency' });
  }
  return Math.min(n, MAX_CONCURRENCY);
}
