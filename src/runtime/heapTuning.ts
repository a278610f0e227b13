/**
 * The command's V8 heap tuning (src/extractor.ts applies it before a run): flags set at run time,
 * and the handle the output worker's start needs to deal with them (`HeapFlags`,
 * src/outputWorker/client.ts), returned to the caller, which hands it down.
 */
import v8 from 'node:v8';
import type { HeapFlags } from '../outputWorker/client.ts';
import { afterEachGc, type HeapAfterGc } from './heapAfterGc.ts';

/**
 * V8 heap settings, applied by the command itself so that `node dist/cli.js`, the npm bin and the
 * image behave alike (no NODE_OPTIONS, no re-spawn). Only flags that V8 reads again while running
 * can be set this way; each flag below was measured to take effect when set at run time
 * (`--max-semi-space-size`, read once when the heap is created, does not).
 *
 * The extractor's live heap is small and flat (one page, one batch, one row at a time: 20–30 MB);
 * what V8 lets accumulate around it is what the RSS shows. Set EX_GENERIC_HEAP_TUNING=0 to run
 * with V8's defaults.
 *
 * - Young generation: V8 grows the two semi-spaces up to 2 × 64 MiB under our allocation rate,
 *   RSS that holds nothing but garbage. `--semi-space-growth-factor` is read at every growth:
 *   after each GC we stop the growth (factor 1) once both semi-spaces together reach
 *   YOUNG_CAP_BYTES (8 MiB semi-spaces; 16 MiB ones measured 8–16 MB more RSS at 1M records, see
 *   docs/performance.md) and allow it again (factor 2, the default) should V8 ever shrink them.
 *   Until scavenges cost something (`YoungGrowthGate`) the growth stays off altogether: a run that
 *   mostly waits for its API (child jobs, slow pages) scavenges its 1 MiB semi-spaces in well
 *   under 5 % of its time, and V8 would still grow them to 8 MiB (P3: 13–15 MB of RSS).
 * - Old generation: V8 lets it grow up to about 4 × the live size before the next full GC. With
 *   a small live heap that headroom fills with short-lived large objects (each response body is
 *   one ~200 KB string that a scavenge may happen to promote), 50 MB and more at 1M records.
 *   `--heap-growing-percent` is read whenever the next limit is computed.
 * - Pretenuring off: when many objects of one allocation site (the response decoder's maps, say)
 *   survive a scavenge, V8 starts allocating that site's objects in the old generation. Ours die
 *   with their page; dead there, they keep the young objects they point to alive until the next
 *   full GC, those get promoted, and the run settled — in about half of the P1 runs measured — into
 *   ~8 MB of survivors per scavenge and a full GC every ~100 ms: 450–550 ms of main-thread GC
 *   instead of 150–170 ms. `--allocation-site-pretenuring` is read at every such decision.
 * - The output worker's heap: semi-spaces of WORKER_SEMI_SPACE_MB from its start (see
 *   `HeapFlags.semiSpaceMb`; the growth factor set here would keep its young generation at 1 MiB).
 * - A full GC of our own when the old generation (everything outside the young generation, as
 *   heapAfterGc.ts counts it) holds OLD_SLACK_BYTES more than after the last full GC
 *   (`collectWhenGrown`). V8 starts marking near its limit, but
 *   marks concurrently on a helper thread; with both cores busy (the worker, the API, other
 *   processes) the marking lags and the page texts of ~140 KB each — large objects, promoted
 *   whenever a scavenge meets one while it is decoded — piled up to 8–40 MB before the marking
 *   finished (P2, 1M records, depending on the machine's load). One full GC of the ~10 MB live
 *   heap takes ~5–10 ms; P1 (100k records) runs a few, P2 some tens: no CPU difference we could
 *   measure (P1, interleaved, docs/performance.md), 4–6 MB less peak RSS than at 8 MB.
 *
 * These flags are part of the hash V8 checks a code cache against, and a new thread reads it:
 * with them set, a worker rejected Node's built-in code cache and compiled Node's own modules
 * from source (~90 ms to start instead of ~48). They are set back to V8's defaults while an
 * output worker starts (`suspend`), and again once it has loaded.
 */
const YOUNG_CAP_BYTES = 16 * 1024 * 1024;
const HEAP_GROWING_PERCENT = 25;
/** Semi-spaces of the output worker's heap (its young generation: two of them). */
const WORKER_SEMI_SPACE_MB = 2;
/** Growth of the old generation since the last full GC at which we run one ourselves. */
const OLD_SLACK_BYTES = 2 * 1024 * 1024;
/**
 * Share of the wall time spent in scavenges (over the last SCAVENGE_WINDOW of them) from which the
 * young generation may grow. Measured at 1 MiB semi-spaces: P3 (1000 child requests × 20 ms)
 * 2.5 %, P1 (200 pages × 500 records, CPU-bound) over 20 %.
 */
const GROW_AT_SCAVENGE_SHARE = 0.1;
const SCAVENGE_WINDOW = 8;
/** `node --v8-options` of Node 24: 0 = V8 picks the growing factor itself. */
const V8_DEFAULT_HEAP_GROWING_PERCENT = 0;

/**
 * Applies the flags above and keeps the young generation's growth in check after each GC.
 * Returns their handle for whoever starts an output worker (`suspend` while it loads, the
 * semi-spaces of its heap).
 */
export function tuneHeap(): HeapFlags {
  let growing = false;
  let suspended = 0;
  const gate = new YoungGrowthGate();
  /** Factor 2 is V8's default growth; 1 stops it. */
  const setGrowth = (): void => v8.setFlagsFromString(`--semi-space-growth-factor=${growing ? 2 : 1}`);
  const apply = (): void => {
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    v8.setFlagsFromString('--no-allocation-site-pretenuring');
    setGrowth();
  };
  const collect = collectWhenGrown();
  const check = (heap: HeapAfterGc): void => {
    for (const { start, duration } of heap.scavenges) gate.scavenged(start, duration);
    if (suspended === 0 && heap.youngSize > YOUNG_CAP_BYTES) {
      shrinkYoung();
      return;
    }
    collect(heap.oldUsed);
    const grow = gate.open && heap.youngSize < YOUNG_CAP_BYTES;
    if (grow === growing) return;
    growing = grow;
    if (suspended === 0) setGrowth();
  };
  const suspend = (): (() => void) => {
    if (suspended++ === 0) {
      v8.setFlagsFromString(`--heap-growing-percent=${V8_DEFAULT_HEAP_GROWING_PERCENT}`);
      v8.setFlagsFromString('--allocation-site-pretenuring');
      v8.setFlagsFromString('--semi-space-growth-factor=2');
    }
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--suspended === 0) apply();
    };
  };
  apply();
  afterEachGc(check);
  return { semiSpaceMb: WORKER_SEMI_SPACE_MB, suspend };
}

/**
 * Whether the young generation may grow: once scavenges took GROW_AT_SCAVENGE_SHARE of the wall
 * time over the last SCAVENGE_WINDOW of them, and from then on. A small young generation costs
 * only when much survives each scavenge (P1's pages while they are decoded: 1 MiB semi-spaces
 * doubled its CPU); when little survives, a scavenge is short and a larger one only holds garbage.
 * The share, not a scavenge count or a duration, so that a slower machine decides alike.
 */
export class YoungGrowthGate {
  private readonly starts: number[] = [];
  private readonly durations: number[] = [];
  private opened = false;

  get open(): boolean {
    return this.opened;
  }

  /** A scavenge that started at `start` and took `duration` (ms, one clock). */
  scavenged(start: number, duration: number): void {
    if (this.opened) return;
    this.starts.push(start);
    this.durations.push(duration);
    if (this.starts.length > SCAVENGE_WINDOW) {
      this.starts.shift();
      this.durations.shift();
    }
    if (this.starts.length < SCAVENGE_WINDOW) return;
    const span = start + duration - this.starts[0]!;
    const spent = this.durations.reduce((a, b) => a + b, 0);
    this.opened = spent >= GROW_AT_SCAVENGE_SHARE * span;
  }
}

/** V8's `gc(options)`: what a full GC of our own and a shrinking one ask for. */
type V8Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'regular' | 'last-resort' }) => void;

/**
 * V8's `gc()`, taken once, from a context created while `--expose-gc` is set for that moment
 * only: the flag is part of the code-cache hash (see `suspend`) and stays off.
 */
const v8Gc = ((): (() => V8Gc) => {
  let gc: V8Gc | undefined;
  return () => {
    if (gc === undefined) {
      v8.setFlagsFromString('--expose-gc');
      try {
        gc = process.getBuiltinModule('node:vm').runInNewContext('gc') as V8Gc;
      } finally {
        v8.setFlagsFromString('--no-expose-gc');
      }
    }
    return gc;
  };
})();

/**
 * After each GC, given the old generation's bytes in use: a full GC when they grew by
 * OLD_SLACK_BYTES since the last one (see above). The reading after that full GC (it is reported
 * like any other) becomes the new base.
 */
function collectWhenGrown(): (oldUsed: number) => void {
  let settled = -1;
  return (now) => {
    if (settled < 0 || now < settled) {
      settled = now;
      return;
    }
    if (now - settled < OLD_SLACK_BYTES) return;
    v8Gc()();
    settled = -1;
  };
}

/**
 * Gives a young generation grown past YOUNG_CAP_BYTES back. While an output worker loads, the
 * growth factor is V8's default (`suspend`: it is part of the code-cache hash), and a busy main
 * thread went on scavenging and grew its semi-spaces from 8 to 16 MiB in about one P1 run of
 * five: 32 MB of young generation, a peak of 134–136 MB instead of 117–119. V8 did not shrink
 * them on its own in any busy run measured; a memory-reducing full GC does (to 1 MiB), and from there they
 * grow back under the cap. One full GC in the runs it happens to, none in the others.
 */
function shrinkYoung(): void {
  v8Gc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
