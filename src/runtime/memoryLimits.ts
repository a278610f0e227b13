/**
 * Running inside a memory limit (issue 32 #6): the platform's container limit (cgroup) or an
 * address-space cap (`ulimit -v`). Two things go wrong there without care:
 *
 * - V8 reserves address space far beyond what it uses. Each isolate reserves a 512 MiB code
 *   range, so the output worker's isolate alone took a quarter of a 2 GiB cap, and a run of
 *   300 MB RSS died in "Committing semi space failed" (exit 134). The worker's reservations are
 *   sized here (`workerResourceLimits`): a 64 MiB code range (it compiles one renderer, a few
 *   MiB of code) and an old generation that fits the limit, so that a worker that runs out
 *   ends with ERR_WORKER_OUT_OF_MEMORY (the main thread renders instead) rather than taking
 *   the process down.
 * - V8's own out-of-memory end is a fatal error on stderr and exit 133/134: no ERROR line, and
 *   under a container limit the kernel's SIGKILL comes first and says nothing at all.
 *   `guardMemory` checks after each garbage collection how full the heap is against V8's limit
 *   and how much memory of its own the process holds against the container's limit
 *   (`ownResidentBytes`), and ends the run with one
 *   ERROR line before either happens. A single allocation too large for what is left can still
 *   end in V8's fatal error: no JavaScript runs then.
 *
 * The main thread's own reservations are fixed when the process starts (V8 reads those flags
 * only then), and the command sets no flags on its own command line (src/runtime/heapTuning.ts).
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import { afterEachGc } from './heapAfterGc.ts';

export interface MemoryLimits {
  /** `ulimit -v` (RLIMIT_AS) in bytes, when set. */
  addressSpace?: number;
  /** The container's memory limit (cgroup v2 memory.max or v1 memory.limit_in_bytes), when set. */
  container?: number;
}

const MIB = 1024 * 1024;
/** The output worker's code range: its renderer is a few MiB of compiled code. */
const WORKER_CODE_RANGE_MB = 64;
/** Share of the tighter limit the output worker's old generation may take. */
const WORKER_OLD_SHARE = 0.25;
/** How full the heap (against V8's limit) or the process (against the container's) may get. */
const FULL = 0.85;

function readNumber(file: string): number | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Limits of this process, as the kernel reports them (none where /proc and cgroups do not exist). */
export function readMemoryLimits(): MemoryLimits {
  const limits: MemoryLimits = {};
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max address space'));
    const soft = line?.slice('Max address space'.length).trim().split(/\s+/)[0];
    if (soft !== undefined && /^\d+$/.test(soft)) limits.addressSpace = Number(soft);
  } catch {
    // not Linux
  }
  // cgroup v1 reports "no limit" as a huge number: anything beyond a terabyte is none.
  const container = readNumber('/sys/fs/cgroup/memory.max') ?? readNumber('/sys/fs/cgroup/memory/memory.limit_in_bytes');
  if (container !== undefined && container < 2 ** 40) limits.container = container;
  return limits;
}

/** The output worker's `resourceLimits` for these limits. */
export function workerResourceLimits(limits: MemoryLimits): { codeRangeSizeMb: number; maxOldGenerationSizeMb?: number } {
  const tightest = Math.min(limits.addressSpace ?? Infinity, limits.container ?? Infinity);
  if (!Number.isFinite(tightest)) return { codeRangeSizeMb: WORKER_CODE_RANGE_MB };
  return { codeRangeSizeMb: WORKER_CODE_RANGE_MB, maxOldGenerationSizeMb: Math.max(64, Math.floor((tightest * WORKER_OLD_SHARE) / MIB)) };
}

function mib(bytes: number): string {
  return `${Math.round(bytes / MIB)} MiB`;
}

/**
 * V8's largest young generation on 64-bit (three 64 MiB semi-spaces): `heap_size_limit` counts it
 * on top of the old generation, whose end is where V8 gives up ("Reached heap limit"). V8 does
 * not report its size; a small heap is assumed to give it at most half (an estimate on the safe
 * side: the run then ends a little early rather than in V8's fatal error).
 */
const YOUNG_RESERVE = 3 * 64 * MIB;

/** What the old generation may hold: V8's heap limit without the young generation's share. */
function oldGenerationLimit(): number {
  const total = v8.getHeapStatistics().heap_size_limit;
  return total - Math.min(YOUNG_RESERVE, total / 2);
}

/**
 * Why the memory is about to run out, or undefined while it is not. `oldUsed`: the old
 * generation's bytes in use after a GC (heapAfterGc.ts: everything outside the young generation),
 * `oldLimit`: what it may hold.
 */
function memoryExhaustion(limits: MemoryLimits, oldUsed: number, oldLimit: number): string | undefined {
  if (oldUsed > FULL * oldLimit) {
    return `Out of memory: the run holds ${mib(oldUsed)} of the ${mib(oldLimit)} JavaScript heap this process may use${describe(limits)}. ${ADVICE}`;
  }
  if (limits.container === undefined) return undefined;
  // Read only under a container limit: it is a read of /proc after every garbage collection.
  const own = ownResidentBytes();
  if (own > FULL * limits.container) {
    return `Out of memory: the run holds ${mib(own)} of memory of its own against the container's memory limit of ${mib(limits.container)}. ${ADVICE}`;
  }
  return undefined;
}

/**
 * What of this process's memory the kernel cannot take back under a container's limit: its
 * anonymous resident pages (RssAnon; there is no swap). Its RSS counts the pages of Node's binary
 * and libraries too — ~35 MB at start, ~50 MB once a run has compiled its busy code and started
 * the output worker — file pages the kernel drops under pressure and reads again, as it does the
 * page cache of the files the run writes. Counting RSS, the guard ended P1 (100,000 records) at
 * its start in a container of 96 MiB ("uses 82 MiB"), where the container had charged 41 MiB and
 * the run fits (docs/performance.md, issue 28). RSS where /proc/self/status has no RssAnon.
 */
function ownResidentBytes(): number {
  try {
    const kib = /^RssAnon:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage.rss();
}

const ADVICE = 'Give the run more memory, or make the API\'s pages smaller (a "limit" parameter of the pagination).';

function describe(limits: MemoryLimits): string {
  const parts: string[] = [];
  if (limits.container !== undefined) parts.push(`container limit ${mib(limits.container)}`);
  if (limits.addressSpace !== undefined) parts.push(`address-space limit ${mib(limits.addressSpace)}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/**
 * Calls `onExhausted` once, with the ERROR line's text, when a check after a garbage collection
 * finds the memory about to run out. Returns the function that stops watching.
 */
export function guardMemory(limits: MemoryLimits, onExhausted: (message: string) => void): () => void {
  // Fixed for the isolate's life (V8 reads its limit flags when the heap is created).
  const oldLimit = oldGenerationLimit();
  let done = false;
  return afterEachGc((heap) => {
    if (done) return;
    const why = memoryExhaustion(limits, heap.oldUsed, oldLimit);
    if (why === undefined) return;
    done = true;
    onExhausted(why);
  });
}
