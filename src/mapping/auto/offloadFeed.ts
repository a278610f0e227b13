/**
 * The current-mode parser's side of an output offload (outputOffload.ts): starts it at a write of
 * the spool file (the first the starter is ready for), keeps it informed of every flush and, when it changed, of the
 * structure, tells the parser when to help it with link hashes, and collects its tables at the end.
 *
 * Apart from the parser class (index.ts), which analyses, spools and writes rows; whether the
 * output phase runs early elsewhere is this file's business and the starter's. It is called per
 * spool flush and per batch, never per record.
 */
import { appendRendered, type TableSink } from '../../output/tableSink.ts';
import type { Spool } from '../../spool/spool.ts';
import type { ParentColumns } from './parentColumns.ts';
import type { OutputOffload, OutputOffloadStarter } from './outputOffload.ts';
import { Structure, type StructureSnapshot } from './structure.ts';

/** How far (spool bytes) the output worker may lag before the main thread helps it (`digests`). */
const HELP_AFTER_BYTES = 4 * 1024 * 1024;

export class OffloadFeed {
  private readonly starter: OutputOffloadStarter;
  private readonly spool: Spool;
  private readonly spoolDir: string;
  private readonly debug: (msg: string) => void;
  private offload: OutputOffload | undefined;
  /** No offload could be started: not tried again. */
  private unavailable = false;
  /** The structure changed since the offload last received it. */
  private changed = true;
  /** Spool bytes the offload may be behind before this thread computes link digests for it. */
  private readonly helpAfter: number;

  constructor(starter: OutputOffloadStarter, spool: Spool, spoolDir: string, debug: (msg: string) => void) {
    this.starter = starter;
    this.spool = spool;
    this.spoolDir = spoolDir;
    this.debug = debug;
    this.helpAfter = starter.fromFirstBatch ? 0 : HELP_AFTER_BYTES;
  }

  /** The parser's structure changed (it is sent with the next flush). */
  structureChanged(): void {
    this.changed = true;
  }

  /** The spool wrote `bytes` to its file: starts the offload at a write it is ready for, then keeps it informed. */
  flushed(bytes: number, structure: Structure): void {
    if (this.offload === undefined) {
      const file = this.spool.path;
      if (file === undefined || this.unavailable || this.starter.ready?.(bytes) === false) return;
      this.offload = this.starter.start(file, this.spoolDir, (why) => this.debug(`Tables are written without an output worker: ${why}`));
      this.unavailable = this.offload === undefined;
      if (this.offload === undefined) return;
    }
    this.offload.notify(bytes, this.takeSnapshot(structure));
  }

  /**
   * The offload renders while this thread fetches, decodes and analyses; when it falls behind,
   * this thread takes over the link hashes of the root records (md5 of each serialized record —
   * the largest part of rendering a batch) and spools them with the batch. Only batches without
   * parent columns: their hash input is the record alone (04 §4.6); with parent columns it also
   * depends on aliases decided in the output phase.
   */
  wantsDigests(parentColumns: ParentColumns): boolean {
    return this.offload !== undefined && parentColumns.size === 0 && this.offload.behind(this.spool.written) > this.helpAfter;
  }

  /**
   * The output phase through the offload: its tables appended to `sink` and the structure after
   * the output phase (with its registrations) returned; an error of the output phase thrown as the
   * parser would have thrown it. Undefined when there is no offload or it cannot deliver: the
   * parser then writes the tables itself.
   */
  async writeTables(sink: TableSink, structure: Structure): Promise<Structure | undefined> {
    if (this.offload === undefined) return undefined;
    this.spool.flush();
    const result = await this.offload.finish(this.spool.written, this.takeSnapshot(structure));
    if (result === undefined) {
      this.debug(`Tables are written without the output worker: ${this.offload.failure ?? 'no answer'}`);
      return undefined;
    }
    // In the order the output opened them, as the output itself would have (names checked,
    // header conflicts found in that order).
    for (const t of result.tables) appendRendered(sink.open(t.name, t.header), t.file, t.rows);
    if (result.type === 'failed') throw result.error;
    const final = Structure.fromSnapshot(result.structure);
    this.debug(`Tables written by the output worker (${result.passes === 1 ? 'one pass' : `${result.passes} passes`} over the batches).`);
    return final;
  }

  close(): void {
    this.offload?.close();
    this.offload = undefined;
  }

  private takeSnapshot(structure: Structure): StructureSnapshot | undefined {
    if (!this.changed) return undefined;
    this.changed = false;
    return structure.snapshot();
  }
}
