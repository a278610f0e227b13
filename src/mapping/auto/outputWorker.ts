/**
 * The automatic parser's output phase on a second thread, started while the jobs still run
 * (worker side; the main side is outputWorkerClient.ts).
 *
 * The reference produces rows only after the last batch, because a later batch can still change
 * the structure (a new column, a type upgrade) and with it every row. The output is a function of
 * the final structure and the batches in order, nothing else. So the worker renders the spooled
 * batches as they are flushed, speculatively, with the latest structure the main thread sent; if
 * no newer structure arrives before the end, that rendering is the output. A newer structure makes
 * it stale: the worker renders everything again from the start of the spool, once at least as
 * many bytes arrived under the new structure as before it (each such pass covers at least twice
 * the data of the one before, so stale passes together stay under twice the data), or at the end. Rows are written to files of the worker's own; the main thread
 * appends them to the staged tables in the order the tables were opened.
 *
 * An error while speculating only makes the rendering stale: with the final structure it either
 * happens again (and is reported) or it does not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ApplicationError } from '../../errors/ApplicationError.ts';
import { UserError } from '../../errors/UserError.ts';
import { TableFile } from '../../output/tableFile.ts';
import type { TableSink, TableWriter } from '../../output/tableSink.ts';
import { CurrentOutput } from './currentParser.ts';
import { Pause } from '../../output/pause.ts';
import { streamOf } from '../../spool/frame.ts';
import { SpoolReader } from '../../spool/reader.ts';
import { Structure, type StructureSnapshot } from './structure.ts';

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

function isOutputWorkerData(data: unknown): data is OutputWorkerData {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === 'auto-output';
}

/** The spool holds `upTo` bytes of complete frames; `snapshot` = the structure, when it changed. */
export interface FramesMessage {
  type: 'frames' | 'finish';
  upTo: number;
  snapshot?: StructureSnapshot;
}

/** A table the worker wrote: rows only, no header line. */
export interface RenderedTable {
  name: string;
  header: string[];
  file: string;
  rows: number;
}

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

export function serializeError(e: unknown): SerializedError {
  const err = e instanceof Error ? e : new Error(String(e));
  const kind = err instanceof UserError ? 'user' : err instanceof ApplicationError ? 'application' : 'internal';
  const out: SerializedError = { kind, name: err.name, message: err.message };
  if (err instanceof UserError && err.configPath !== undefined) out.configPath = err.configPath;
  if (err.stack !== undefined) out.stack = err.stack;
  return out;
}

/** The error `serializeError` describes, as the class the thread that raised it had. */
export function deserializeError(e: SerializedError): Error {
  if (e.kind === 'user') return new UserError(e.message, e.configPath !== undefined ? { configPath: e.configPath } : {});
  if (e.kind === 'application') return new ApplicationError(e.message);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.stack !== undefined) err.stack = e.stack;
  return err;
}

/** Table files of one rendering, in the order the output opened them. */
class RenderedTables implements TableSink {
  private readonly files: { name: string; table: TableFile }[] = [];
  private readonly writers = new Map<string, TableFile>();
  private readonly dir: string;
  private closed = false;

  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(dir);
  }

  open(name: string, header: readonly string[]): TableWriter {
    const existing = this.writers.get(name);
    if (existing) return existing;
    // No header line: the rows are appended to the staged table, which has one.
    const table = new TableFile(path.join(this.dir, `${this.files.length}.csv`), header, false);
    this.files.push({ name, table });
    this.writers.set(name, table);
    return table;
  }

  /** What the main thread appends, in opening order. */
  get tables(): RenderedTable[] {
    return this.files.map(({ name, table }) => ({ name, header: [...table.header], file: table.path, rows: table.rows }));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const { table } of this.files) table.file.close();
  }

  discard(): void {
    this.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

interface Rendering {
  structure: Structure;
  sink: RenderedTables;
  out: CurrentOutput;
  /** The snapshot it renders with. */
  snapshot: StructureSnapshot;
}

/** The worker's side: renders what `post` receives, answers the `finish` message through `reply`. */
export class OutputRenderer {
  private readonly reader: SpoolReader;
  private readonly dir: string;
  private readonly pause = new Pause();
  private latest: StructureSnapshot | undefined;
  private rendering: Rendering | undefined;
  /** The rendering no longer matches the latest structure (or failed while speculating). */
  private stale = false;
  /** The snapshot a speculative rendering failed with: not tried again. */
  private failedWith: StructureSnapshot | undefined;
  /** Spool bytes when the latest structure arrived. */
  private changedAt = 0;
  private available = 0;
  private generation = 0;

  private readonly progress: Int32Array | undefined;

  constructor(data: OutputWorkerData) {
    this.reader = new SpoolReader(fs.openSync(data.spoolFile, 'r'));
    this.dir = data.dir;
    this.progress = data.progress ? new Int32Array(data.progress) : undefined;
  }

  async handle(m: FramesMessage): Promise<WorkerReply | undefined> {
    if (m.snapshot !== undefined) {
      this.latest = m.snapshot;
      this.changedAt = this.available;
      if (this.rendering) this.stale = true;
    }
    this.available = m.upTo;
    this.reader.extend(m.upTo);
    if (m.type === 'frames') {
      if (this.rendering && !this.stale) await this.render(false);
      else if (this.latest !== this.failedWith && this.available - this.changedAt >= this.changedAt) await this.restart(false);
      return undefined;
    }
    try {
      if (!this.rendering || this.stale) await this.restart(true);
      else await this.render(true);
    } catch (e) {
      this.rendering?.sink.close();
      return { type: 'failed', tables: this.rendering?.sink.tables ?? [], error: serializeError(e) };
    }
    const r = this.rendering!;
    r.sink.close();
    return { type: 'done', tables: r.sink.tables, structure: r.structure.snapshot(), passes: this.generation };
  }

  /** A new rendering from the first frame, with the latest structure. */
  private async restart(final: boolean): Promise<void> {
    this.rendering?.sink.discard();
    const snapshot = this.latest;
    if (snapshot === undefined) throw new Error('output worker: no structure received');
    const structure = Structure.fromSnapshot(snapshot);
    const sink = new RenderedTables(path.join(this.dir, String(this.generation++)));
    this.rendering = { structure, sink, out: new CurrentOutput(structure, sink, true), snapshot };
    this.stale = false;
    this.reader.rewind();
    await this.render(final);
  }

  /** Renders the frames available; `final`: errors are the run's, not speculation's. */
  private async render(final: boolean): Promise<void> {
    const r = this.rendering!;
    try {
      for (let dec = this.reader.next(); dec !== undefined; dec = this.reader.next()) {
        await r.out.writeStreamed(streamOf(dec), this.pause);
        if (this.progress) Atomics.store(this.progress, 0, Math.floor(this.reader.position / 1024));
      }
    } catch (e) {
      if (final) throw e;
      this.stale = true;
      this.failedWith = r.snapshot;
    }
  }
}

/** Starts the output worker when this thread is one (see OUTPUT_WORKER_ARG); true if it did. */
export function startIfOutputWorker(): boolean {
  if (!process.argv.includes(OUTPUT_WORKER_ARG)) return false;
  const thread = process.getBuiltinModule('node:worker_threads');
  if (thread.isMainThread || !isOutputWorkerData(thread.workerData)) return false;
  runOutputWorker(thread.parentPort!, thread.workerData);
  return true;
}

/** Entry of the worker thread: messages are handled one after another, in order. */
function runOutputWorker(port: { on(event: 'message', f: (m: FramesMessage) => void): void; postMessage(m: WorkerReply | ReadyMessage): void }, data: OutputWorkerData): void {
  const renderer = new OutputRenderer(data);
  const queue: FramesMessage[] = [];
  let busy = false;
  const drain = async (): Promise<void> => {
    busy = true;
    while (queue.length > 0) {
      const reply = await renderer.handle(queue.shift()!);
      if (reply) port.postMessage(reply);
    }
    busy = false;
  };
  port.on('message', (m) => {
    queue.push(m);
    if (!busy) void drain();
  });
  port.postMessage({ type: 'ready' } satisfies ReadyMessage);
}
