/**
 * Main side of the output worker (outputWorker.ts): starts it on the parser's spool file, tells it
 * how far the spool is written and what the structure is, and collects its tables at the end.
 *
 * The worker is an optimisation only. If it cannot start, crashes or exits, `finish` answers
 * `undefined` and the parser writes the tables itself from the spool, as without a worker.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { OUTPUT_WORKER_ARG, type FramesMessage, type OutputWorkerData, type ReadyMessage, type WorkerReply } from './outputWorker.ts';
import type { StructureSnapshot } from './structure.ts';

/**
 * When the output phase runs on a worker thread (EX_GENERIC_OUTPUT_WORKER):
 * - `auto` (default): once a parser's spool outgrows its first MiB, on a machine with two or more
 *   CPUs — small runs do not pay for a thread;
 * - `always`: from the first batch (the spool writes every batch at once) — for tests;
 * - `off` (`0`): never.
 */
export type OutputWorkerMode = 'auto' | 'always' | 'off';

export function outputWorkerMode(env: NodeJS.ProcessEnv): OutputWorkerMode {
  const v = (env['EX_GENERIC_OUTPUT_WORKER'] ?? '').trim().toLowerCase();
  if (v === 'off' || v === '0' || v === 'false') return 'off';
  if (v === 'always') return 'always';
  return os.availableParallelism() >= 2 ? 'auto' : 'off';
}

let workerScript: string | URL | undefined;

/**
 * The module a worker loads: the extractor's entry, which turns into an output worker when it is
 * loaded with `OutputWorkerData` (src/extractor.ts). Unset: no worker is started.
 */
export function setOutputWorkerScript(script: string | URL): void {
  workerScript = script;
}

export interface OutputWorkerHeap {
  /**
   * Semi-spaces of each worker's heap, fixed from its start. The command's heap tuning
   * (src/extractor.ts) steers the main thread's young generation with a process-wide V8 flag that
   * also stops a worker's from growing: the worker then scavenged its 1 MiB young generation ~700
   * times per 100,000 records instead of ~45 times.
   */
  semiSpaceMb: number;
  /**
   * Sets the process-wide V8 flags back to their defaults until the returned function is called
   * (a worker started with other flags compiles Node's own modules without their code cache).
   */
  suspendFlags(): () => void;
}

/** Set by the command's heap tuning; unset: V8's defaults. */
let workerHeap: OutputWorkerHeap | undefined;

export function setOutputWorkerHeap(heap: OutputWorkerHeap): void {
  workerHeap = heap;
}

export class OutputWorkerClient {
  private readonly worker: Worker;
  private readonly dir: string;
  private readonly progress: Int32Array;
  private pending: ((reply: WorkerReply | undefined) => void) | undefined;
  /** Why the worker cannot be used any more (it crashed or exited). */
  private broken: string | undefined;

  /** Sets the heap flags again (see `OutputWorkerHeap.suspendFlags`): once the worker has loaded. */
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
  static start(spoolFile: string, spoolDir: string, onError: (why: string) => void): OutputWorkerClient | undefined {
    if (workerScript === undefined) return undefined;
    let dir: string | undefined;
    let resume = (): void => {};
    try {
      dir = fs.mkdtempSync(path.join(spoolDir, 'render-'));
      const { Worker } = process.getBuiltinModule('node:worker_threads');
      const progress = new SharedArrayBuffer(4);
      const data: OutputWorkerData = { role: 'auto-output', spoolFile, dir, progress };
      let resourceLimits: { maxYoungGenerationSizeMb: number } | undefined;
      if (workerHeap !== undefined) {
        // Read when the worker's heap is created, not again: the main thread's heap keeps its own.
        // Not part of the code-cache hash (measured).
        process.getBuiltinModule('node:v8').setFlagsFromString(`--min-semi-space-size=${workerHeap.semiSpaceMb}`);
        // V8's young generation: two semi-spaces and as much again for large objects.
        resourceLimits = { maxYoungGenerationSizeMb: 3 * workerHeap.semiSpaceMb };
        resume = workerHeap.suspendFlags();
      }
      const worker = new Worker(workerScript, { workerData: data, argv: [OUTPUT_WORKER_ARG], ...(resourceLimits ? { resourceLimits } : {}) });
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
  finish(upTo: number, snapshot: StructureSnapshot | undefined): Promise<WorkerReply | undefined> {
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
