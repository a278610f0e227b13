/**
 * Progress of long extractions (beyond the reference): pages, records and elapsed time logged at
 * INFO at most once per interval (5 s by default). Short runs log nothing.
 */
import type { Logger } from '../logging/logger.ts';

export interface ProgressEvent {
  /** Pages output since the previous event (1 per page). */
  pages: number;
  /** Records on those pages. */
  records: number;
  /** The endpoint of the top-level job being run. */
  job: string;
}

export type ProgressHook = (event: ProgressEvent) => void;

export function createProgressLog(logger: Logger, nowMs: () => number, intervalMs = 5000): ProgressHook {
  const start = nowMs();
  let lastLog = start;
  let pages = 0;
  let records = 0;
  return (event) => {
    pages += event.pages;
    records += event.records;
    const now = nowMs();
    if (now - lastLog < intervalMs) return;
    lastLog = now;
    const elapsed = Math.round((now - start) / 1000);
    logger.info(`Progress: ${pages} pages, ${records} records, ${elapsed} seconds elapsed (job '${event.job}').`, {
      pages,
      records,
      elapsedSeconds: elapsed,
    });
  };
}
