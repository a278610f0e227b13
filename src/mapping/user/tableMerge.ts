/**
 * Merging results (spec 04 §7.9) on top of a streaming `TableSink`.
 *
 * The final table set is: every mapper in pre-order (roots in `mappings` key order, own table, then
 * nested tables depth-first), then the automatic parser's tables. A name that occurs twice must
 * have identical headers (else `Multiple results for '<name>' table have different columns!`) and
 * the later rows are appended to the earlier table.
 *
 * Mapper rows are streamed as batches arrive. For a table name that only one mapper can produce
 * (the normal case) rows go straight into the sink. When several mappers can produce the same name
 * (known statically from the configuration), the earliest of them streams directly and the others
 * spool their rows to disk; `resolve()` appends the spools in final-set order, so the file has the
 * reference's row order whatever order the batches arrived in. The automatic parser writes only
 * in the output phase, after every mapper row, so its rows are simply appended.
 *
 * Header conflicts are raised where the reference raises them: between mappers when results are
 * collected (`resolve()`), against the automatic parser after its output phase (`autoConflict`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { UserError } from '../../errors/UserError.ts';
import type { TableSink, TableWriter } from '../../output/tableSink.ts';
import { differentColumns } from './errors.ts';

const FLUSH_AT = 1 << 16;

/** Rows of one producer kept on disk as JSON lines (JSON escapes CR/LF, so lines split safely). */
class RowSpool implements TableWriter {
  private readonly file: string;
  private fd: number;
  private buffer = '';

  constructor(file: string) {
    this.file = file;
    this.fd = fs.openSync(file, 'w');
  }

  write(cells: readonly string[]): void {
    this.buffer += JSON.stringify(cells) + '\n';
    if (this.buffer.length >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.buffer !== '') fs.writeSync(this.fd, this.buffer);
    this.buffer = '';
  }

  /** Streams the rows into `target` in chunks, then deletes the file. */
  replayInto(target: TableWriter): void {
    this.flush();
    fs.closeSync(this.fd);
    this.fd = -1;
    const fd = fs.openSync(this.file, 'r');
    try {
      const chunk = Buffer.alloc(FLUSH_AT);
      const decoder = new StringDecoder('utf8');
      let pending = '';
      for (;;) {
        const n = fs.readSync(fd, chunk, 0, chunk.length, null);
        if (n === 0) break;
        pending += decoder.write(chunk.subarray(0, n));
        let nl = pending.indexOf('\n');
        let start = 0;
        while (nl >= 0) {
          target.write(JSON.parse(pending.slice(start, nl)) as string[]);
          start = nl + 1;
          nl = pending.indexOf('\n', start);
        }
        pending = pending.slice(start);
      }
    } finally {
      fs.closeSync(fd);
      fs.rmSync(this.file, { force: true });
    }
  }

  discard(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
    fs.rmSync(this.file, { force: true });
  }
}

interface ProducedTable {
  name: string;
  rank: number;
  header: readonly string[];
  primaryKey: () => readonly string[];
  /** Set when the rows are spooled (a later producer of a shared name). */
  spool: RowSpool | null;
  writer: TableWriter;
}

interface ResolvedTable {
  header: readonly string[];
  writer: TableWriter;
}

const DISCARD: TableWriter = { write: () => {}, writeRendered: () => {} };

function sameHeader(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class TableMerge {
  private readonly sink: TableSink;
  /** Table name → rank of the earliest mapper that can produce it (only that one streams directly). */
  private readonly firstProducer: Map<string, number>;
  private readonly spoolParent: string;
  private spoolDir: string | null = null;
  private spoolCount = 0;
  private readonly produced: ProducedTable[] = [];
  private resolved: Map<string, ResolvedTable> | null = null;
  private readonly autoOpened = new Map<string, TableWriter>();
  private conflict: UserError | null = null;

  constructor(sink: TableSink, firstProducer: Map<string, number>, spoolParent: string | undefined) {
    this.sink = sink;
    this.firstProducer = firstProducer;
    this.spoolParent = spoolParent ?? os.tmpdir();
  }

  /** Called once per mapper when its table is created (the header is fixed then). */
  openMapperTable(name: string, rank: number, header: readonly string[], primaryKey: () => readonly string[]): TableWriter {
    if (this.resolved) throw new Error(`mapper table '${name}' opened after the results were collected`);
    const first = this.firstProducer.get(name);
    let spool: RowSpool | null = null;
    let writer: TableWriter;
    if (first === undefined || first === rank) {
      writer = this.sink.open(name, header);
    } else {
      if (this.spoolDir === null) this.spoolDir = fs.mkdtempSync(path.join(this.spoolParent, 'mapper-merge-'));
      spool = new RowSpool(path.join(this.spoolDir, `${this.spoolCount++}.jsonl`));
      writer = spool;
    }
    this.produced.push({ name, rank, header: [...header], primaryKey, spool, writer });
    return writer;
  }

  private byRank(): ProducedTable[] {
    return [...this.produced].sort((a, b) => a.rank - b.rank);
  }

  /** Collects the mapper results in final-set order: header checks, spooled rows appended. */
  resolve(): void {
    if (this.resolved) return;
    const resolved = new Map<string, ResolvedTable>();
    for (const t of this.byRank()) {
      const earlier = resolved.get(t.name);
      if (!earlier) {
        const writer = t.spool ? this.sink.open(t.name, t.header) : t.writer;
        if (t.spool) t.spool.replayInto(writer);
        resolved.set(t.name, { header: t.header, writer });
        continue;
      }
      if (!sameHeader(earlier.header, t.header)) throw differentColumns(t.name);
      t.spool?.replayInto(earlier.writer);
    }
    this.resolved = resolved;
    this.removeSpoolDir();
  }

  /** The sink handed to the automatic parser's output phase (after `resolve()`). */
  autoSink(): TableSink {
    return {
      open: (name: string, header: readonly string[]): TableWriter => {
        const again = this.autoOpened.get(name);
        if (again) return again;
        const mapped = this.resolved?.get(name);
        let writer: TableWriter;
        if (!mapped) {
          writer = this.sink.open(name, header);
        } else if (sameHeader(mapped.header, header)) {
          writer = mapped.writer;
        } else {
          this.conflict ??= differentColumns(name);
          writer = DISCARD;
        }
        this.autoOpened.set(name, writer);
        return writer;
      },
    };
  }

  /** First header conflict between a mapper table and an automatic table, if any. */
  autoConflict(): UserError | null {
    return this.conflict;
  }

  /** Primary key per table: the one of the first producer in final-set order, when non-empty. */
  primaryKeys(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const seen = new Set<string>();
    for (const t of this.byRank()) {
      if (seen.has(t.name)) continue;
      seen.add(t.name);
      const pk = t.primaryKey();
      if (pk.length > 0) out.set(t.name, [...pk]);
    }
    return out;
  }

  /** Removes any spool files (error paths). */
  close(): void {
    for (const t of this.produced) t.spool?.discard();
    this.removeSpoolDir();
  }

  private removeSpoolDir(): void {
    if (this.spoolDir !== null) fs.rmSync(this.spoolDir, { recursive: true, force: true });
    this.spoolDir = null;
  }
}
