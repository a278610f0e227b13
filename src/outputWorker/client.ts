/**
 * Main side of the output worker (the thread's side is renderer.ts): starts it on the parser's
 * spool file, tells it how far the spool is written and what the structure is, and collects its
 * tables at the end — the automatic parser's `OutputOffload` (src/mapping/auto/outputOffload.ts).
 *
 * The worker is an optimisation only. If it cannot start, crashes or exits, `finish` answers
 * `undefined` and the parser writes the tables itself from the spool, as without a worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { OffloadResult, OutputOffload } from '../mapping/auto/outputOffload.ts';
import type { StructureSnapshot } from '../mapping/auto/structure.ts';
import { deserializeError } from './errorTransfer.ts';
import { OUTPUT_WORKER_ARG, type FramesMessage, type OutputWorkerData, type ReadyMessage, type WorkerReply } from './protocol.ts';

/**
 * The command's V8 heap flags (src/runtime/heapTuning.ts), as a worker's start must treat them.
 * Without them (EX_GENERIC_HEAP_TUNING=0, or a parser created in a test) a worker starts with
 * V8's defaults.
 */
export interface HeapFlags {
  /**
   * Semi-spaces of each worker's heap, fixed from its start. The command's heap tuning
   * (src/runtime/heapTuning.ts) steers the main thread's young generation with a process-wide V8
   * flag that also stops a worker's from growing: the worker then scavenged its 1 MiB young
   * generation ~700 times per 100,000 records instead of ~45 times.
   */
  readonly semiSpaceMb: number;
  /**
   * Sets the process-wide V8 flags back to their defaults until the returned function is called
   * (a worker started with other flags compiles Node's own modules without their code cache).
   */
  suspend(): () => void;
}

/** What starting an output worker takes, handed down by the command (src/extractor.ts). */
export interface OutputWorkerStart {
  /**
   * The module the worker's thread loads: the command's entry (src/cli.ts), which turns into an
   * output worker when it is loaded with `OUTPUT_WORKER_ARG` (src/runtime/outputWorkerDispatch.ts).
   */
  script: string | URL;
  /** The command's heap flags; none: V8's defaults. */
  heap?: HeapFlags;
  /** The worker's reservations, sized for the process's memory limit (src/runtime/memoryLimits.ts). */
  resourceLimits?: { codeRangeSizeMb?: number; maxOldGenerationSizeMb?: number };
}

export class OutputWorkerClient implements OutputOffload {
  private readonly worker: Worker;
  private readonly dir: string;
  private readonly progress: Int32Array;
  private pending: ((reply: WorkerReply | undefined) => void) | undefined;
  /** Why the worker cannot be used any more (it crashed or exited). */
  private broken: string | undefined;

  /** Sets the heap flags again (see `HeapFlags.suspend`): once the worker has loaded. */
  private readonly resumeFlags: () => void;

  private constructor(worker: Worker, dir: string, progress: SharedArrayBuffer, resumeFlags: () => void) {
    this.worker = worker;
    this.resumeFlags = resumeFlags;
    this.dir = dir;
    this.progress = new Int32Array(progress);
    const fail = (why: string): void => {
      this.resumeFlags();
      this.broken ??= why;
      const pending = this.pending;
      this.pending = undefined;
      pending?.(undefined);
    };
    worker.on('message', (reply: WorkerReply | ReadyMessage) => {
      if (reply.type === 'ready') {
        this.resumeFlags();
        return;
      }
      const pending = this.pending;
      this.pending = undefined;
      pending?.(reply);
    });
    worker.on('error', (e: Error) => fail(`it failed: ${e.message}`));
    worker.on('messageerror', (e: Error) => fail(`a message failed: ${e.message}`));
    worker.on('exit', (code: number) => fail(`it exited with code ${code}`));
  }

  /** A worker rendering `spoolFile`; undefined when no worker can be started (reason in `onError`). */
  static start(
    how: OutputWorkerStart,
    spoolFile: string,
    spoolDir: string,
    onError: (why: string) => void,
  ): OutputWorkerClient | undefined {
    const workerHeap = how.heap;
    let dir: string | undefined;
    let resume = (): void => {};
    try {
      dir = fs.mkdtempSync(path.join(spoolDir, 'render-'));
      const { Worker } = process.getBuiltinModule('node:worker_threads');
      const progress = new SharedArrayBuffer(4);
      const data: OutputWorkerData = { role: 'auto-output', spoolFile, dir, progress };
      let resourceLimits: NonNullable<OutputWorkerStart['resourceLimits']> & { maxYoungGenerationSizeMb?: number } = {
        ...how.resourceLimits,
      };
      if (workerHeap !== undefined) {
        // Read when the worker's heap is created, not again: the main thread's heap keeps its own.
        // Not part of the code-cache hash (measured).
        process.getBuiltinModule('node:v8').setFlagsFromString(`--min-semi-space-size=${workerHeap.semiSpaceMb}`);
        // V8's young generation: two semi-spaces and as much again for large objects.
        resourceLimits = { ...resourceLimits, maxYoungGenerationSizeMb: 3 * workerHeap.semiSpaceMb };
        resume = workerHeap.suspend();
      }
      const worker = new Worker(how.script, { workerData: data, argv: [OUTPUT_WORKER_ARG], resourceLimits });
      return new OutputWorkerClient(worker, dir, progress, resume);
    } catch (e) {
      resume();
      if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
      onError((e as Error).message);
      return undefined;
    }
  }

  /** The spool now holds `upTo` bytes of complete frames; `snapshot` when the structure changed. */
  notify(upTo: number, snapshot: StructureSnapshot | undefined): void {
    this.post({ type: 'frames', upTo, ...(snapshot ? { snapshot } : {}) });
  }

  /** Everything is spooled: the worker's tables, or undefined when it cannot deliver them. */
  async finish(upTo: number, snapshot: StructureSnapshot | undefined): Promise<OffloadResult | undefined> {
    const reply = await this.reply(upTo, snapshot);
    if (reply === undefined || reply.type === 'done') return reply;
    return { type: 'failed', tables: reply.tables, error: deserializeError(reply.error) };
  }

  /** The worker's answer to `finish`. */
  private reply(upTo: number, snapshot: StructureSnapshot | undefined): Promise<WorkerReply | undefined> {
    if (this.broken !== undefined) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.pending = resolve;
      this.post({ type: 'finish', upTo, ...(snapshot ? { snapshot } : {}) });
    });
  }

  /** Bytes of a spool of `written` bytes that the worker has not rendered yet. */
  behind(written: number): number {
    return written - Atomics.load(this.progress, 0) * 1024;
  }

  /** Why the worker could not deliver, if it could not. */
  get failure(): string | undefined {
    return this.broken;
  }

  /** Stops the worker and removes its files. */
  close(): void {
    this.broken ??= 'it was closed';
    void this.worker.terminate();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private post(m: FramesMessage): void {
    if (this.broken !== undefined) return;
    try {
      this.worker.postMessage(m);
    } catch (e) {
      this.broken = `a message could not be sent: ${(e as Error).message}`;
    }
  }
}
