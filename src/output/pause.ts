/**
 * Pauses of the output phase: the automatic parser's (src/mapping/auto/) and the output worker's
 * (src/outputWorker/) long loops over spooled batches return to the event loop now and then.
 * It sits in output/ because it paces the output phase, which both of them run; nothing in it is
 * about parsing.
 */

/** The output phase returns to the event loop after this much synchronous work. */
const PAUSE_AFTER_MS = 10;

/**
 * A pause of a long output phase. A long synchronous output phase starves the event loop, and
 * with it the tasks V8 runs on the thread for its garbage collection (the minor-GC task, the
 * finalization of incremental marking): measured on 1M records, old-generation garbage climbed
 * to ~90 MB before each full GC instead of ~40 MB, and the peak RSS with it.
 */
export class Pause {
  private last = performance.now();

  async maybe(): Promise<void> {
    const now = performance.now();
    if (now - this.last < PAUSE_AFTER_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}

/** Records of one batch written between two pauses of the output phase. */
export const SLICE_RECORDS = 1000;
