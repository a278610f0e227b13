/**
 * Tables are written into a staging folder beside `out/tables` and moved into place only when
 * the whole run succeeded, so a failed run leaves no partial table (spec 01 §1.4).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { moveFiles, type RenameFile } from './moveFiles.ts';
import { keepMarkedAlive, stagingPrefix } from './staleStaging.ts';
import { TableFile } from './tableFile.ts';
import type { TableSink, TableWriter } from './tableSink.ts';

/** Why a name cannot be a file in `out/tables`: the kind for callers that word it their own way. */
export interface FileNameProblem {
  kind: 'character' | 'relative' | 'tooLong';
  text: string;
}

/**
 * Bucket and table names come from the configuration (`outputBucket`, `id`, `dataType`,
 * `mappings`) and are used as they are, so a name that is not a plain file name is refused:
 * `../x` would write outside `out/tables`; `a/b` and over-long names would crash the run. The
 * names the configuration gives are checked before any request (src/component/outputNames.ts);
 * the checks here meet only names made while data arrives.
 */
export function fileNameProblem(file: string): FileNameProblem | undefined {
  return /[/\\\0]/.test(file)
    ? { kind: 'character', text: 'contains "/", "\\" or a NUL character' }
    : file === '' || file === '.' || file === '..'
      ? { kind: 'relative', text: 'is empty or a relative path' }
      : Buffer.byteLength(file) + '.manifest'.length > 255
        ? { kind: 'tooLong', text: 'is too long for a file name' }
        : undefined;
}

function problemMessage(file: string, problem: string): string {
  return `The output table name "${file}" ${problem}. Check "outputBucket", "id", the jobs' "dataType" and "mappings".`;
}

function checkedFileName(file: string, configPath: string): string {
  const problem = fileNameProblem(file);
  if (problem === undefined) return file;
  throw new UserError(problemMessage(file, problem.text), { configPath });
}

/**
 * A table name, made while data arrived, that cannot be a file: found when the table is opened,
 * raised when the tables are written, after the extraction — a user error, with nothing written.
 */
function unwritableTable(file: string, problem: string): UserError {
  return new UserError(
    `${problemMessage(file, problem)} The tables are written after the extraction, so the run fails only now; nothing was written.`,
    {
      configPath: 'parameters.config',
    },
  );
}

/** The writer of a table that is not written (empty name): rows are counted nowhere. */
const DROPPED: TableWriter = { write: () => {}, writeValues: () => {}, writeRendered: () => {} };

/** A table's file name in `out/tables`: the bucket as a prefix when there is one (spec 01 §1.4). */
function tableFile(bucket: string | null, table: string): string {
  return bucket === null ? table : `${bucket}.${table}`;
}

export class OutputStaging {
  readonly dir: string;
  readonly spoolDir: string;
  private readonly tablesDir: string;
  /** `out/` when this run created it: a run that ends without output removes it again if empty. */
  private readonly createdOut: string | undefined;
  private readonly tables = new Map<string, TableFile>();
  private readonly manifests = new Map<string, string>();
  /** Tables whose names cannot be files, by the name they were opened with: the run fails when it writes them. */
  private readonly unwritable = new Map<string, UserError>();

  private readonly rename: RenameFile;
  private readonly stopHeartbeat: () => void;

  /** `rename` is the file-system seam of the final move (tests raise EXDEV through it). */
  constructor(dataDir: string, options: { rename?: RenameFile } = {}) {
    this.tablesDir = path.join(dataDir, 'out', 'tables');
    this.rename = options.rename ?? fs.renameSync;
    const out = path.join(dataDir, 'out');
    this.createdOut = fs.mkdirSync(out, { recursive: true }) === undefined ? undefined : out;
    // The name and the heartbeat let a later run tell a killed run's folder (staleStaging.ts).
    this.dir = fs.mkdtempSync(path.join(dataDir, 'out', stagingPrefix()));
    this.stopHeartbeat = keepMarkedAlive(this.dir);
    this.spoolDir = path.join(this.dir, 'spool');
    fs.mkdirSync(path.join(this.dir, 'tables'));
    fs.mkdirSync(this.spoolDir);
  }

  /**
   * A sink writing tables of one bucket. A table whose name is empty (a child table whose path
   * sanitises to nothing, 04 §4.7) is not written: the reference cannot create that file and
   * drops its rows, warning and finishing with exit 0 (issue 22); `onDropped` is told once.
   */
  sink(bucket: string | null, onDropped: (header: readonly string[]) => void = () => {}): TableSink & { opened: Map<string, TableWriter> } {
    const opened = new Map<string, TableWriter>();
    return {
      opened,
      open: (name: string, header: readonly string[]): TableWriter => {
        const existing = opened.get(name);
        if (existing) return existing;
        if (name === '') {
          onDropped(header);
          opened.set(name, DROPPED);
          return DROPPED;
        }
        if (bucket !== null) checkedFileName(bucket, 'parameters.config.outputBucket');
        const file = tableFile(bucket, name);
        const problem = fileNameProblem(file);
        if (problem !== undefined) {
          this.unwritable.set(file, unwritableTable(file, problem.text));
          opened.set(name, DROPPED);
          return DROPPED;
        }
        const table = this.tables.get(file) ?? new TableFile(path.join(this.dir, 'tables', file), header);
        this.tables.set(file, table);
        opened.set(name, table);
        return table;
      },
    };
  }

  hasTable(file: string): boolean {
    return this.tables.has(file);
  }

  tableHeader(file: string): readonly string[] | undefined {
    return this.tables.get(file)?.header;
  }

  /**
   * The file name in `out/tables` of a table opened during the extraction, for its manifest; fails
   * as the reference does when that table could not be written.
   */
  manifestName(bucket: string | null, table: string): string {
    const file = tableFile(bucket, table);
    const failure = this.unwritable.get(file);
    if (failure !== undefined) throw failure;
    if (bucket !== null) checkedFileName(bucket, 'parameters.config.outputBucket');
    return checkedFileName(file, 'parameters.config');
  }

  /** Writes a header-only table (spec 04 §7.10). */
  addHeaderOnly(file: string, header: readonly string[]): void {
    const problem = fileNameProblem(file);
    if (problem !== undefined) throw unwritableTable(file, problem.text);
    const table = new TableFile(path.join(this.dir, 'tables', file), header);
    this.tables.set(file, table);
  }

  setManifest(file: string, json: string): void {
    this.manifests.set(file, json);
  }

  /** Row counts by file, for the run summary. */
  rowCounts(): Map<string, number> {
    return new Map([...this.tables].map(([f, t]) => [f, t.rows]));
  }

  /**
   * Moves everything into `out/tables` (by rename, or by a durable copy when `out/tables` is on
   * another file system: moveFiles.ts); manifests are written without a trailing newline.
   */
  commit(): 'rename' | 'copy' {
    for (const table of this.tables.values()) table.file.close();
    for (const [file, json] of this.manifests) fs.writeFileSync(path.join(this.dir, 'tables', `${file}.manifest`), json);
    fs.mkdirSync(this.tablesDir, { recursive: true });
    let how: 'rename' | 'copy';
    try {
      how = moveFiles(path.join(this.dir, 'tables'), this.tablesDir, this.rename);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ApplicationError(`Moving the tables into ${this.tablesDir} failed: ${reason}`);
    }
    this.tables.clear();
    this.discard();
    return how;
  }

  discard(): void {
    this.stopHeartbeat();
    for (const table of this.tables.values()) {
      try {
        table.file.close();
      } catch {
        // already closed
      }
    }
    this.tables.clear();
    fs.rmSync(this.dir, { recursive: true, force: true });
    if (this.createdOut !== undefined) removeIfEmpty(this.createdOut);
  }
}

/** Removes `dir` when nothing is in it (a failed run leaves the data folder as it found it); else leaves it. */
function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // Not empty (the state, the tables), or already gone: it stays as it is.
  }
}
