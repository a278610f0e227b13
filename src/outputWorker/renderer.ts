/**
 * The automatic parser's output phase on a second thread, started while the jobs still run
 * (worker side: the rendering; the thread's entry is entry.ts, the main side client.ts).
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
import { CurrentOutput } from '../mapping/auto/currentParser.ts';
import { Structure, type StructureSnapshot } from '../mapping/auto/structure.ts';
import { Pause } from '../output/pause.ts';
import { streamedBatches } from '../spool/frame.ts';
import { SpoolReader } from '../spool/reader.ts';
import { serializeError } from './errorTransfer.ts';
import type { FramesMessage, OutputWorkerData, WorkerReply } from './protocol.ts';
import { RenderedTables } from './renderedTables.ts';

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
      for (const batch of streamedBatches(() => this.reader.next())) {
        await r.out.writeStreamed(batch, this.pause);
        if (this.progress) Atomics.store(this.progress, 0, Math.floor(this.reader.position / 1024));
      }
    } catch (e) {
      if (final) throw e;
      this.stale = true;
      this.failedWith = r.snapshot;
    }
  }
}
