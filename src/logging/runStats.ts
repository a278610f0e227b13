/**
 * Counters of one run for the end-of-run summary line (beyond the reference, which ends without
 * one): what went over the wire, what was paged, what was written, how long it took.
 */

export class RunStats {
  /** Attempts sent (retries, login requests and redirect hops included). */
  requests = 0;
  /** Attempts that were retried. */
  retries = 0;
  /** Response body bytes received (after decompression). */
  bytes = 0;
  /** Pages output by the jobs (one per response handed to the records stage). */
  pages = 0;
  private readonly startedMs: number;

  constructor(startedMs: number) {
    this.startedMs = startedMs;
  }

  /** `rows` is table file → data rows; `nowMs` the end of the run. */
  summary(rows: ReadonlyMap<string, number>, nowMs: number): { message: string; context: Record<string, unknown> } {
    const seconds = Math.max(0, nowMs - this.startedMs) / 1000;
    const total = [...rows.values()].reduce((a, b) => a + b, 0);
    const perTable = [...rows].map(([table, n]) => `${table} ${count(n)}`).join(', ');
    const tables = rows.size === 0 ? 'no tables' : `${count(rows.size)} table${rows.size === 1 ? '' : 's'} (${perTable})`;
    const message =
      `Summary: ${count(this.requests)} request${this.requests === 1 ? '' : 's'} (${count(this.retries)} ${this.retries === 1 ? 'retry' : 'retries'}), ` +
      `${count(this.pages)} page${this.pages === 1 ? '' : 's'}, ${count(total)} row${total === 1 ? '' : 's'} in ${tables}, ` +
      `${formatBytes(this.bytes)} received, ${seconds.toFixed(1)} s.`;
    return {
      message,
      context: {
        requests: this.requests,
        retries: this.retries,
        pages: this.pages,
        rows: Object.fromEntries(rows),
        bytes: this.bytes,
        durationMs: Math.max(0, Math.round(nowMs - this.startedMs)),
      },
    };
  }
}

/**
 * 1999 → "1,999": counts read at a glance. The text `toLocaleString('en-US')` gives (thousands
 * separators, at most three decimals rounded half up, "-0"), built by hand: the first
 * `toLocaleString` of a process starts ICU, measured at ~20 ms of a one-request job's ~75 ms.
 * Values whose shortest text is in exponent form (beyond 1e21, below 1e-6, NaN, Infinity) never
 * are counts; they keep ICU's text.
 */
export function count(n: number): string {
  const text = Object.is(n, -0) ? '-0' : String(n);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return n.toLocaleString('en-US');
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const [intDigits, decimals] = roundToThousandths(whole!, fraction);
  return (negative ? '-' : '') + intDigits.replace(/\B(?=(\d{3})+$)/g, ',') + (decimals === '' ? '' : `.${decimals}`);
}

/** Rounds the decimal digits to three, half up, on the digits themselves (as ICU rounds the shortest text); no trailing zeros. */
function roundToThousandths(whole: string, fraction: string): [string, string] {
  if (fraction.length <= 3) return [whole, fraction.replace(/0+$/, '')];
  const digits = whole + fraction.slice(0, 3);
  let scaled = fraction.charCodeAt(3) >= 0x35 ? (BigInt(digits) + 1n).toString() : digits;
  scaled = scaled.padStart(4, '0');
  return [scaled.slice(0, -3).replace(/^0+(?=\d)/, ''), scaled.slice(-3).replace(/0+$/, '')];
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}
