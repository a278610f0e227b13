/**
 * The heap as each garbage collection leaves it, read once and handed to every listener: the heap
 * tuning (heapTuning.ts) and the memory guard (memoryLimits.ts) both act after each GC. Each had
 * its own `gc` observer reading V8's heap spaces, and each counted a different "old generation";
 * now there is one observer, one read per batch of GC entries, and one definition.
 */
import { constants, PerformanceObserver, type PerformanceObserverEntryList } from 'node:perf_hooks';
import v8 from 'node:v8';

/** What a listener gets after a GC (or several, when V8 reports them together). */
export interface HeapAfterGc {
  /**
   * Bytes in use outside the young generation: every space but `new_space` and
   * `new_large_object_space` (old objects, large objects, code, trusted and shared spaces). This
   * is what counts against V8's heap limit, and what only a full GC gives back.
   */
  oldUsed: number;
  /** The young generation's size (`new_space`: both semi-spaces), in use or not. */
  youngSize: number;
  /** The scavenges among the entries: start and duration, in ms of `performance.now()`. */
  scavenges: readonly { start: number; duration: number }[];
}

export type HeapListener = (heap: HeapAfterGc) => void;

const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/** The current reading, with the scavenges of `list`. */
function read(list: PerformanceObserverEntryList): HeapAfterGc {
  const scavenges: { start: number; duration: number }[] = [];
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges.push({ start: entry.startTime, duration: entry.duration });
  }
  let oldUsed = 0;
  let youngSize = 0;
  for (const space of v8.getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space') youngSize = space.space_size;
    if (!YOUNG_SPACES.has(space.space_name)) oldUsed += space.space_used_size;
  }
  return { oldUsed, youngSize, scavenges };
}

const listeners = new Set<HeapListener>();
let observer: PerformanceObserver | undefined;

/**
 * Calls `listener` after each GC of this thread with the heap as it left it. Returns the function
 * that stops it; the observer ends with its last listener.
 */
export function afterEachGc(listener: HeapListener): () => void {
  listeners.add(listener);
  if (observer === undefined) {
    observer = new PerformanceObserver((list) => {
      const heap = read(list);
      // Over a copy, as a listener may stop itself or another one.
      for (const l of [...listeners]) if (listeners.has(l)) l(heap);
    });
    observer.observe({ entryTypes: ['gc'] });
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && observer !== undefined) {
      observer.disconnect();
      observer = undefined;
    }
  };
}
