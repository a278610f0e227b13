/**
 * Test helpers for the user-defined mapper: an in-memory TableSink, a tiny job runner for the
 * conformance examples (dataField / auto-detection per 03 §3.2–§3.3, child jobs with path
 * placeholders and `parent_<path>` columns per 03 §4.4/§4.7), rendering with `csvLine`.
 */
import { compatLevelOf } from '../../../src/config/outputOptions.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJson } from '../../../src/php/jsonDecode.ts';
import { phpString } from '../../../src/php/stringConversion.ts';
import { type Value, JsonObject, PhpArray, isEmpty, isList, isMap } from '../../../src/php/value.ts';
import type { TableSink } from '../../../src/output/tableSink.ts';
import type { AutoParser } from '../../../src/mapping/auto/index.ts';
import { createAutoParser } from '../../../src/mapping/auto/index.ts';
import { MappingRouter } from '../../../src/mapping/router.ts';
import { EXAMPLES, MemorySink, exampleDir, extractRecords, get, lookup, responseFor } from '../helpers.ts';

export { EXAMPLES, MemorySink, exampleDir, extractRecords };

/** An AutoParser stand-in that records calls and writes nothing unless told to. */
export class StubAuto implements AutoParser {
  readonly mode = 'current' as const;
  readonly batches: { records: Value[]; dataType: string; parentColumns: Map<string, Value> }[] = [];
  readonly tables: { name: string; header: string[]; rows: string[][] }[];
  wrote = 0;

  constructor(tables: { name: string; header: string[]; rows: string[][] }[] = []) {
    this.tables = tables;
  }

  addBatch(records: Value[], dataType: string, parentColumns: Map<string, Value>): void {
    this.batches.push({ records, dataType, parentColumns });
  }

  async writeTables(sink: TableSink): Promise<void> {
    this.wrote++;
    for (const t of this.tables) {
      const w = sink.open(t.name, t.header);
      for (const r of t.rows) w.write(r);
    }
  }

  stateEntries(): { struct: Value; version: number } {
    return { struct: [], version: 3 };
  }

  close(): void {}
}

export const cfg = (json: string): Value => decodeJson(json, 'config');
export const resp = (json: string): Value => decodeJson(json, 'response');

export interface ExampleRun {
  sink: MemorySink;
  router: MappingRouter;
  bucket: string;
  config: PhpArray;
}

export interface RunOptions {
  /** Replace every response by this value (e.g. `[]`). */
  responseOverride?: Value;
  auto?: AutoParser;
}

/** Runs an example's jobs (no pagination) through a MappingRouter backed by the real automatic parser. */
export async function runExample(num: string, options: RunOptions = {}): Promise<ExampleRun> {
  const dir = exampleDir(num);
  const root = decodeJson(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'), 'config') as PhpArray;
  const params = root.get('parameters') as PhpArray;
  const config = params.get('config') as PhpArray;
  const basePath = new URL(phpString(get(params, 'api', 'baseUrl'))).pathname;
  const apiDir = path.join(EXAMPLES, basePath.split('/')[1]!);
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'user-mapping-test-'));
  const logger = { warning: () => {}, debug: () => {} };
  const auto =
    options.auto ?? createAutoParser({ state: undefined, compatLevel: compatLevelOf(config.get('compatLevel')), spoolDir, logger });
  const sink = new MemorySink();
  const router = new MappingRouter({ mappings: config.get('mappings'), auto, sink, spoolDir });

  const runJob = (job: PhpArray, endpoint: string, parentColumns: Map<string, Value>): void => {
    const response = options.responseOverride ?? responseFor(apiDir, basePath + endpoint);
    const records = extractRecords(response, job);
    const dataType = isEmpty(job.get('dataType')) ? phpString(job.get('endpoint')) : phpString(job.get('dataType'));
    router.addBatch(records, dataType, parentColumns);
    const children = job.get('children');
    if (!isList(children)) return;
    for (const child of children as PhpArray[]) {
      const placeholders = [...(child.get('placeholders') as PhpArray)];
      for (const record of records) {
        // single-level, single path placeholder: enough for the examples used here
        const [name, p] = placeholders[0]!;
        const value = lookup(phpString(p), record, '.') ?? null;
        for (const v of isList(value) ? value : [value]) {
          const ep = phpString(child.get('endpoint')).replace('{' + name + '}', phpString(v));
          const col = phpString(p).startsWith('parent_') ? phpString(p) : 'parent_' + phpString(p);
          runJob(child, ep, new Map([[col, v]]));
        }
      }
    }
  };

  const userData = config.get('userData');
  for (const job of config.get('jobs') as PhpArray[]) {
    const pc = new Map<string, Value>();
    if (isMap(userData)) for (const [k, v] of userData) pc.set(k, v);
    runJob(job, phpString(job.get('endpoint')), pc);
  }
  try {
    await router.finish();
  } finally {
    auto.close();
    fs.rmSync(spoolDir, { recursive: true, force: true });
  }
  const bucket = isEmpty(config.get('outputBucket')) ? '' : phpString(config.get('outputBucket'));
  return { sink, router, bucket, config };
}

export interface ExpectedTable {
  bytes: Buffer;
  manifest: Record<string, unknown>;
}

/** Expected tables of an example: table name (without bucket prefix) → bytes + manifest. */
export function expectedTables(num: string, bucket: string): Map<string, ExpectedTable> {
  const out = path.join(exampleDir(num), '_sample_out');
  const res = new Map<string, ExpectedTable>();
  for (const f of fs.readdirSync(out).sort()) {
    if (f.endsWith('.manifest')) continue;
    const table = bucket ? f.slice(bucket.length + 1) : f;
    res.set(table, {
      bytes: fs.readFileSync(path.join(out, f)),
      manifest: JSON.parse(fs.readFileSync(path.join(out, f + '.manifest'), 'utf8')) as Record<string, unknown>,
    });
  }
  return res;
}

export { PhpArray, JsonObject };

export interface Batch {
  dataType: string;
  /** JSON text of the record list (decoded as a response). */
  records: string;
  /** JSON text of the parent columns object (decoded as configuration). */
  parentColumns?: string;
}

/** Runs hand-made batches through a router with a stub automatic parser. */
export async function runBatches(
  mappings: string,
  batches: Batch[],
  autoTables: { name: string; header: string[]; rows: string[][] }[] = [],
): Promise<{ sink: MemorySink; router: MappingRouter; auto: StubAuto }> {
  const sink = new MemorySink();
  const auto = new StubAuto(autoTables);
  const router = new MappingRouter({ mappings: cfg(mappings), auto, sink });
  try {
    for (const b of batches) {
      const pc = new Map<string, Value>();
      if (b.parentColumns !== undefined) for (const [k, v] of cfg(b.parentColumns) as PhpArray) pc.set(k, v);
      router.addBatch(resp(b.records) as Value[], b.dataType, pc);
    }
    await router.finish();
  } finally {
    router.close();
  }
  return { sink, router, auto };
}

/** Rendered CSV of every table. */
export function rendered(sink: MemorySink): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of sink.tables.keys()) out[name] = sink.render(name);
  return out;
}
