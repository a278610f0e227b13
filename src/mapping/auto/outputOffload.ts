/**
 * What the automatic parser knows of an output phase run elsewhere: an offload that renders the
 * spool's frames while the batches still arrive, with the latest structure it was given, and hands
 * back rendered tables at the end.
 *
 * Only an interface: the implementation (a worker thread, src/outputWorker/) is chosen and
 * created by whoever creates the parser (src/component/bucketOutputs.ts) and handed in as an
 * `OutputOffloadStarter`; this folder does not import it. offloadFeed.ts is the parser's side.
 */
import type { StructureSnapshot } from './structure.ts';

/** A table rendered elsewhere: its rows in a file of their own, no header line. */
export interface RenderedTable {
  name: string;
  header: string[];
  file: string;
  rows: number;
}

/** The output phase's result, as the offload rendered it with the final structure. */
export type OffloadResult =
  /** `structure`: after the output phase (its registrations included); `passes`: how many times the offload started rendering from the first batch. */
  | { type: 'done'; tables: RenderedTable[]; structure: StructureSnapshot; passes: number }
  /** The output phase failed: the tables opened before the error, and the error as the parser would have raised it. */
  | { type: 'failed'; tables: RenderedTable[]; error: Error };

/**
 * An output phase running beside the parser on its spool file. An optimisation only: when it
 * cannot deliver, `finish` answers `undefined` and the parser writes the tables itself.
 */
export interface OutputOffload {
  /** The spool now holds `upTo` bytes of complete frames; `snapshot` when the structure changed. */
  notify(upTo: number, snapshot: StructureSnapshot | undefined): void;
  /** Everything is spooled: the rendered tables, or undefined when they cannot be delivered. */
  finish(upTo: number, snapshot: StructureSnapshot | undefined): Promise<OffloadResult | undefined>;
  /** Bytes of a spool of `written` bytes that are not rendered yet. */
  behind(written: number): number;
  /** Why the offload could not deliver, if it could not. */
  readonly failure: string | undefined;
  /** Stops it and removes its files. */
  close(): void;
}

/** Starts offloads; the parser asks once, at a write of its spool file (see `ready`). */
export interface OutputOffloadStarter {
  /**
   * From the first batch: the spool writes every batch to its file at once, and the parser helps
   * with link hashes as soon as the offload lags at all (for tests). Otherwise the spool is
   * written per MiB, so the offload starts at such a write (once `ready`).
   */
  readonly fromFirstBatch: boolean;
  /**
   * Whether an offload pays now, the spool file holding `spooled` bytes; asked at each write of
   * the spool file until it answers yes (none: it starts at the first write). An output worker
   * pays only for a spool of some size, while the parser's thread is busy.
   */
  ready?(spooled: number): boolean;
  /** An offload rendering `spoolFile`; undefined when none can be started (the reason, if any, in `onError`). */
  start(spoolFile: string, spoolDir: string, onError: (why: string) => void): OutputOffload | undefined;
}
