/**
 * What the main thread and an output worker's thread say to each other: the worker's
 * `workerData` and argv marker, the messages to it (frames flushed, finish) and its replies.
 * Types, the marker and a check of `workerData` only, so that the command (src/runtime/outputWorkerDispatch.ts) can
 * recognise a worker's thread without loading anything else; errors cross as `SerializedError`
 * (errorTransfer.ts).
 */
import type { RenderedTable } from '../mapping/auto/outputOffload.ts';
import type { StructureSnapshot } from '../mapping/auto/structure.ts';

export type { RenderedTable };

/** `workerData` of an output worker. */
export interface OutputWorkerData {
  role: 'auto-output';
  /** The spool file the main thread appends to. */
  spoolFile: string;
  /** An empty folder of the worker's own for its table files. */
  dir: string;
  /** One Int32: KiB of the spool rendered by the current pass (how far behind the worker is). */
  progress?: SharedArrayBuffer;
}

/**
 * Passed to an output worker as its argv: a thread can tell from `process.argv` that it may be one
 * without loading `node:worker_threads` (~2.5 ms of every run's start-up on the main thread).
 */
export const OUTPUT_WORKER_ARG = '--auto-output-worker';

/** Whether `data` (a thread's `workerData`) is an output worker's. */
export function isOutputWorkerData(data: unknown): data is OutputWorkerData {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === 'auto-output';
}

/** The spool holds `upTo` bytes of complete frames; `snapshot` = the structure, when it changed. */
export interface FramesMessage {
  type: 'frames' | 'finish';
  upTo: number;
  snapshot?: StructureSnapshot;
}

/** An error of the worker's output phase, as data (errorTransfer.ts). */
export interface SerializedError {
  kind: 'user' | 'application' | 'internal';
  name: string;
  message: string;
  configPath?: string;
  stack?: string;
}

/** Sent once the worker's code is loaded: the main thread may set its V8 flags again. */
export interface ReadyMessage {
  type: 'ready';
}

export type WorkerReply =
  /** `passes`: how many times the worker started rendering from the first batch. */
  | { type: 'done'; tables: RenderedTable[]; structure: StructureSnapshot; passes: number }
  /** The output phase failed with the final structure: the tables opened before the error. */
  | { type: 'failed'; tables: RenderedTable[]; error: SerializedError };
