/**
 * The automatic JSON → CSV parser (spec 04 §3–§5, §8).
 *
 * Batches are analysed when they arrive (type errors are raised then) and spooled to disk; the
 * output phase (`writeTables`, asynchronous) streams them back in arrival order into the sink.
 * In current mode the output phase may run early elsewhere: an output offload (outputOffload.ts),
 * handed in by whoever creates the parser, fed by offloadFeed.ts.
 */
import { type Value, isEmpty, isMap } from '../../php/value.ts';
import type { TableSink } from '../../output/tableSink.ts';
import { Spool, type SpoolOptions } from '../../spool/spool.ts';
import { Structure, currentStructureVersion } from './structure.ts';
import { CurrentOutput, analyzeCurrent, linkDigest } from './currentParser.ts';
import { Pause } from '../../output/pause.ts';
import { OffloadFeed } from './offloadFeed.ts';
import type { OutputOffloadStarter } from './outputOffload.ts';
import { LegacyOutput, LegacyStructure, looselyNull } from './legacyParser.ts';
import type { ParentColumns } from './parentColumns.ts';

export interface AutoParserLogger {
  warning(msg: string): void;
  debug(msg: string): void;
}

export interface AutoParser {
  readonly mode: 'current' | 'legacy';
  /** Analyse + spool one batch; throws `UserError('Error parsing response JSON: …')`. */
  addBatch(records: Value[], dataType: string, parentColumns: ParentColumns): void;
  /**
   * Output phase: writes every table into the sink. Call once, after all batches, and await it
   * before anything else touches the parser or the sink. It returns to the event loop now and
   * then (see `Pause`), which is what lets V8 finish its garbage-collection work in time.
   */
  writeTables(sink: TableSink): Promise<void>;
  /**
   * `json_parser.struct` / `json_parser.structVersion` for `out/state.json`. Call after
   * `writeTables` (parent-column registrations happen in the output phase and are part of it).
   */
  stateEntries(): { struct: Value; version: number };
  /** Removes the spool file. */
  close(): void;
}

export interface AutoParserOptions {
  /** The whole input state object (PhpArray), if any. */
  state: Value | undefined;
  /** The effective compatibility level (`compatLevelOf` in src/config/outputOptions.ts): 1 = legacy parser. */
  compatLevel: number;
  spoolDir: string;
  logger: AutoParserLogger;
  /** The parser of an earlier configuration of this run: its structure is carried over (04 §8). */
  inherit?: AutoParser;
  /**
   * Runs the output phase early elsewhere (current mode only; src/component/bucketOutputs.ts hands in the
   * output worker). None: the parser writes the tables itself, at the end.
   */
  outputOffload?: OutputOffloadStarter;
}

/** What both modes share: analyse a batch on arrival, spool it, stream it back at the end. */
abstract class SpooledAutoParser {
  protected readonly spool: Spool;
  protected readonly logger: AutoParserLogger;
  protected readonly warn: (msg: string) => void;

  constructor(spoolDir: string, logger: AutoParserLogger, spoolOptions: SpoolOptions = {}) {
    this.spool = new Spool(spoolDir, spoolOptions);
    this.logger = logger;
    this.warn = (msg) => logger.warning(msg);
  }

  /** Whether the mode ignores this batch entirely (04 §4.2 step 1, §5.2 step 1). */
  protected abstract ignores(records: Value[], dataType: string): boolean;

  /** Updates the structure; type errors are raised here. */
  protected abstract analyze(records: Value[], dataType: string): void;

  addBatch(records: Value[], dataType: string, parentColumns: ParentColumns): void {
    if (this.ignores(records, dataType)) {
      this.logger.debug(`No data returned in '${dataType}'`);
      return;
    }
    this.analyze(records, dataType);
    const digests = this.digests(records, parentColumns);
    this.spool.append({ records, dataType, parentColumns, ...(digests ? { digests } : {}) });
  }

  /** Link digests to spool with the records, if this thread has time for them. */
  protected digests(_records: Value[], _parentColumns: ParentColumns): string[] | undefined {
    return undefined;
  }

  close(): void {
    this.spool.close();
  }
}

class CurrentAutoParser extends SpooledAutoParser implements AutoParser {
  readonly mode = 'current' as const;
  /** Replaced by the offload's structure, which has the output phase's registrations. */
  structure = new Structure();
  /** The output phase run early elsewhere, when the parser was given a starter. */
  private readonly offload: OffloadFeed | undefined;

  constructor(spoolDir: string, logger: AutoParserLogger, offload: OutputOffloadStarter | undefined) {
    const spoolOptions: SpoolOptions = { flushEachBatch: offload?.fromFirstBatch === true };
    super(spoolDir, logger, spoolOptions);
    if (offload !== undefined) {
      const feed = new OffloadFeed(offload, this.spool, spoolDir, (msg) => logger.debug(msg));
      spoolOptions.onFlush = (bytes) => feed.flushed(bytes, this.structure);
      this.offload = feed;
    }
  }

  /** Link digests computed here when the offload lags (see `OffloadFeed.wantsDigests`). */
  protected override digests(records: Value[], parentColumns: ParentColumns): string[] | undefined {
    if (this.offload === undefined || !this.offload.wantsDigests(parentColumns)) return undefined;
    return records.map(linkDigest);
  }

  // §4.2 step 1: no records, or exactly one null.
  protected ignores(records: Value[]): boolean {
    return records.length === 0 || (records.length === 1 && records[0] === null);
  }

  protected analyze(records: Value[], dataType: string): void {
    const before = currentStructureVersion();
    analyzeCurrent(this.structure, records, dataType, this.warn);
    if (currentStructureVersion() !== before) this.offload?.structureChanged();
  }

  async writeTables(sink: TableSink): Promise<void> {
    if (this.offload !== undefined) {
      const offloaded = await this.offload.writeTables(sink, this.structure);
      if (offloaded !== undefined) {
        this.structure = offloaded;
        return;
      }
    }
    // The spool decodes a fresh copy of every record for this output alone.
    const out = new CurrentOutput(this.structure, sink, true);
    const pause = new Pause();
    for (const b of this.spool.streams()) await out.writeStreamed(b, pause);
  }

  override close(): void {
    this.offload?.close();
    super.close();
  }

  stateEntries(): { struct: Value; version: number } {
    return { struct: this.structure.toState(), version: 3 };
  }
}

class LegacyAutoParser extends SpooledAutoParser implements AutoParser {
  readonly mode = 'legacy' as const;
  readonly structure = new LegacyStructure();

  // §5.2 step 1: nothing (or one loosely-null element) for a type the structure does not know.
  protected ignores(records: Value[], dataType: string): boolean {
    return (records.length === 0 || (records.length === 1 && looselyNull(records[0]!))) && !this.structure.hasDefinitions(dataType);
  }

  protected analyze(records: Value[], dataType: string): void {
    this.structure.analyzeBatch(records, dataType, this.warn);
  }

  async writeTables(sink: TableSink): Promise<void> {
    const out = new LegacyOutput(this.structure, sink);
    const pause = new Pause();
    for (const b of this.spool.batches()) {
      out.emitBatch(b.records, b.dataType, b.parentColumns);
      await pause.maybe();
    }
  }

  stateEntries(): { struct: Value; version: number } {
    return { struct: this.structure.toState(), version: 2 };
  }
}

/** Chooses the mode (04 §3), loads the structure and logs the mode warnings. */
export function createAutoParser(options: AutoParserOptions): AutoParser {
  const level = options.compatLevel;
  let struct: Value | undefined;
  let version: Value | undefined;
  if (options.inherit) {
    const entries = options.inherit.stateEntries();
    struct = entries.struct;
    version = entries.version;
  } else if (isMap(options.state)) {
    struct = options.state.get('json_parser.struct');
    version = options.state.get('json_parser.structVersion');
  }
  const { logger, spoolDir } = options;
  const offload = options.outputOffload;
  if (!isEmpty(struct) && !isEmpty(version)) {
    if (version === 2 || version === 2n) {
      logger.warning('Using legacy JSON parser, because it is in configuration state.');
      const parser = new LegacyAutoParser(spoolDir, logger);
      parser.structure.load(struct);
      return parser;
    }
    if (level <= 1) logger.warning('Ignored request for legacy JSON parser, because configuration is already upgraded.');
    const parser = new CurrentAutoParser(spoolDir, logger, offload);
    parser.structure.load(struct);
    return parser;
  }
  if (level <= 1) {
    logger.warning('Using legacy JSON parser, because it has been explicitly requested.');
    return new LegacyAutoParser(spoolDir, logger);
  }
  return new CurrentAutoParser(spoolDir, logger, offload);
}
