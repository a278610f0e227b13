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

/** 1999 → "1,999": counts read at a glance. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}
