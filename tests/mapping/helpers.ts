/**
 * Test helpers for the automatic parser: an in-memory TableSink, a tiny local job runner for the
 * conformance examples (dataField / auto-detection per 03 §3.2–§3.3, single-level children with
 * path placeholders per 03 §4.4/§4.7), and CSV rendering with `csvLine`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { type Value, isEmpty, isList, isMap, PhpArray, JsonObject } from '../../src/php/value.ts';
import { phpString } from '../../src/php/stringConversion.ts';
import { csvLine } from '../helpers/csvOracle.ts';
import type { TableSink, TableWriter } from '../../src/output/tableSink.ts';
import { createAutoParser, type AutoParser } from '../../src/mapping/auto/index.ts';
import { compatLevelOf } from '../../src/config/outputOptions.ts';
import type { OutputOffloadStarter } from '../../src/mapping/auto/outputOffload.ts';
import { applyResponseFilter } from '../../src/mapping/responseFilter.ts';
import { lookupStrict, NOT_FOUND } from '../../src/php/pathLookup.ts';
import { dataFieldOf } from '../../src/jobs/dataField.ts';
import { extractRecords as extractFromResponse } from '../../src/jobs/records.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { tempDir } from '../helpers/tempDirs.ts';

export const EXAMPLES = '/work/shared/conformance/examples';

/** In-memory sink; opening a name again returns the same writer (like the staging sink). */
export class MemorySink implements TableSink {
  readonly tables = new Map<string, { header: string[]; rows: string[][]; writer: TableWriter }>();
  readonly opens: string[] = [];

  open(name: string, header: readonly string[]): TableWriter {
    this.opens.push(name);
    let t = this.tables.get(name);
    if (!t) {
      const rows: string[][] = [];
      t = { header: [...header], rows, writer: { write: (cells) => void rows.push([...cells]) } };
      this.tables.set(name, t);
    }
    return t.writer;
  }

  render(name: string): string {
    const t = this.tables.get(name);
    if (!t) throw new Error(`no table ${name}`);
    let out = t.header.length > 0 ? csvLine(t.header) : '';
    for (const r of t.rows) out += csvLine(r);
    return out;
  }
}

export interface TestLogger {
  warnings: string[];
  debugs: string[];
  warning(m: string): void;
  debug(m: string): void;
}

export function testLogger(): TestLogger {
  const warnings: string[] = [];
  const debugs: string[] = [];
  return { warnings, debugs, warning: (m) => void warnings.push(m), debug: (m) => void debugs.push(m) };
}

export function tmpSpoolDir(): string {
  return tempDir('auto-parser-test-');
}

/** 03 §0.5 lookup; `undefined` = not found. */
export function lookup(p: string, value: Value, delim: string): Value | undefined {
  const v = lookupStrict(p, value, delim);
  return v === NOT_FOUND ? undefined : v;
}

const silent = createLogger({ write: () => {} });

/** 03 §3.2 / §3.3: the records of a response, as the job runner finds them. */
export function extractRecords(response: Value, job: PhpArray): Value[] {
  return extractFromResponse(response, dataFieldOf(job.get('dataField')), phpString(job.get('endpoint') ?? null), silent);
}

export function exampleDir(num: string): string {
  const dir = fs.readdirSync(EXAMPLES).find((d) => d.startsWith(num + '-'));
  if (!dir) throw new Error(`no example ${num}`);
  return path.join(EXAMPLES, dir);
}

function readConfig(dir: string): PhpArray {
  return decodeJson(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'), 'config') as PhpArray;
}

export function get(v: Value | undefined, ...keys: string[]): Value | undefined {
  let cur = v;
  for (const k of keys) cur = isMap(cur) ? cur.get(k) : undefined;
  return cur;
}

/** Finds the response file of `GET <path>` among the simulations of the API folder. */
export function responseFor(apiDir: string, endpointPath: string): Value {
  for (const f of fs.readdirSync(apiDir)) {
    if (!f.endsWith('.request')) continue;
    const line = fs.readFileSync(path.join(apiDir, f), 'utf8').split(/\r?\n/)[0]!;
    const [, reqPath] = line.split(' ');
    if (reqPath!.split('?')[0] === endpointPath) {
      const text = fs.readFileSync(path.join(apiDir, f.replace(/\.request$/, '.response')), 'utf8');
      return decodeJson(text, 'response');
    }
  }
  throw new Error(`no simulation for ${endpointPath} in ${apiDir}`);
}

export interface RunResult {
  sink: MemorySink;
  parser: AutoParser;
  bucket: string;
  logger: TestLogger;
}

/** Runs an example's jobs (no pagination) through the automatic parser. */
export async function runExample(name: string, options: { outputOffload?: OutputOffloadStarter } = {}): Promise<RunResult> {
  const dir = exampleDir(name);
  const config = readConfig(dir);
  const params = config.get('parameters') as PhpArray;
  const cfg = params.get('config') as PhpArray;
  const baseUrl = phpString(get(params, 'api', 'baseUrl'));
  const basePath = new URL(baseUrl).pathname; // /<folder>/
  const apiFolder = path.join(EXAMPLES, basePath.split('/')[1]!);
  // The mock server knows every example's simulations; most configs use their own folder.
  const apiDir = fs.existsSync(apiFolder) ? apiFolder : dir;
  const statePath = path.join(dir, 'in', 'state.json');
  const state = fs.existsSync(statePath) ? decodeJson(fs.readFileSync(statePath, 'utf8'), 'config') : undefined;
  const logger = testLogger();
  const spoolDir = tmpSpoolDir();
  const parser = createAutoParser({ state, compatLevel: compatLevelOf(cfg.get('compatLevel')), spoolDir, logger, ...options });
  const compat = compatLevelOf(cfg.get('compatLevel'));
  const userData = cfg.get('userData');

  const runJob = (job: PhpArray, endpoint: string, parentColumns: Map<string, Value>): void => {
    const response = responseFor(apiDir, basePath + endpoint);
    let records = extractRecords(response, job);
    records = applyResponseFilter(records, job.get('responseFilter') ?? null, job.get('responseFilterDelimiter') ?? null, compat);
    const endpointTemplate = phpString(job.get('endpoint'));
    const dataType = isEmpty(job.get('dataType')) ? endpointTemplate : phpString(job.get('dataType'));
    parser.addBatch(records, dataType, parentColumns);
    const children = job.get('children');
    if (!isList(children)) return;
    for (const child of children as PhpArray[]) {
      const placeholders = child.get('placeholders') as PhpArray;
      for (const record of records) {
        // single-level, single placeholder (enough for the examples used)
        const [[name, p]] = [...placeholders] as [string, Value][];
        const value = lookup(phpString(p), record, '.');
        const values = isList(value) ? value : [value ?? null];
        for (const v of values) {
          const ep = phpString(child.get('endpoint')).replace('{' + name + '}', phpString(v));
          const col = phpString(p).startsWith('parent_') ? phpString(p) : 'parent_' + phpString(p);
          runJob(child, ep, new Map([[col, v]]));
        }
      }
    }
  };

  for (const job of cfg.get('jobs') as PhpArray[]) {
    const pc = new Map<string, Value>();
    if (isMap(userData)) for (const [k, v] of userData) pc.set(k, v);
    runJob(job, phpString(job.get('endpoint')), pc);
  }
  const sink = new MemorySink();
  await parser.writeTables(sink);
  parser.close();
  fs.rmSync(spoolDir, { recursive: true, force: true });
  const bucket = isEmpty(cfg.get('outputBucket')) ? '' : phpString(cfg.get('outputBucket'));
  return { sink, parser, bucket, logger };
}

/** Expected tables of an example: file name (without bucket prefix) → bytes. */
export function expectedTables(name: string, bucket: string): Map<string, string> {
  const out = path.join(exampleDir(name), '_sample_out');
  const res = new Map<string, string>();
  for (const f of fs.readdirSync(out)) {
    if (f.endsWith('.manifest')) continue;
    const table = bucket ? f.slice(bucket.length + 1) : f;
    res.set(table, fs.readFileSync(path.join(out, f), 'latin1'));
  }
  return res;
}

export function renderBytes(sink: MemorySink, table: string): string {
  return Buffer.from(sink.render(table), 'utf8').toString('latin1');
}

export { PhpArray, JsonObject };
