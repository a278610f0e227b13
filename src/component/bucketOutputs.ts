/**
 * The run's outputs per bucket (spec 01 §1.4): configurations of one bucket share its automatic
 * parser, its mapping router and its staged tables; when the extraction is over, every staged
 * table gets its manifest, and mapped tables that received no rows a header-only file (04 §7.10).
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import type { Configuration } from '../config/configurations.ts';
import type { IncrementalOutput } from '../config/outputOptions.ts';
import { createAutoParser, type AutoParser } from '../mapping/auto/index.ts';
import { headerOnlyTables } from '../mapping/headerOnly.ts';
import { MappingRouter } from '../mapping/router.ts';
import type { OutputStaging } from '../output/staging.ts';
import { pjson } from '../php/jsonEncode.ts';
import { PhpArray } from '../php/value.ts';
import { INCREMENTAL_HINT, INCREMENTAL_MESSAGE } from './checks.ts';
import type { RunContext } from './runContext.ts';

/** One bucket's output: where its configurations' records go. */
export interface BucketOutput {
  bucket: string | null;
  parser: AutoParser;
  router: MappingRouter;
  sink: ReturnType<OutputStaging['sink']>;
  /** `incrementalOutput` of the bucket's last configuration: its manifests' flag. */
  incremental: IncrementalOutput | undefined;
}

export class BucketOutputs {
  private readonly run: RunContext;
  private readonly byBucket = new Map<string | null, BucketOutput>();
  private readonly bucketOfConfiguration: (string | null)[] = [];
  /** The parser of the configuration before: a new bucket's parser carries its structure over (04 §8). */
  private previousParser: AutoParser | undefined;
  /** Closed at the end of the run, each as soon as it exists (a later constructor may throw). */
  private readonly parsers: AutoParser[] = [];
  private readonly routers: MappingRouter[] = [];

  constructor(run: RunContext) {
    this.run = run;
  }

  /** The output of `configuration`, in `bucket`: the bucket's, opened by its first configuration. */
  open(configuration: Configuration, bucket: string | null): BucketOutput {
    const output = this.byBucket.get(bucket) ?? this.create(bucket, configuration);
    output.incremental = configuration.output.incremental;
    this.bucketOfConfiguration[configuration.index] = bucket;
    this.previousParser = output.parser;
    return output;
  }

  private create(bucket: string | null, configuration: Configuration): BucketOutput {
    const { logger, staging, outputOffload } = this.run;
    const parser = createAutoParser({
      state: this.run.state.input,
      compatLevel: configuration.output.compatLevel,
      spoolDir: staging.spoolDir,
      logger,
      ...(this.previousParser ? { inherit: this.previousParser } : {}),
      ...(outputOffload ? { outputOffload } : {}),
    });
    this.parsers.push(parser);
    const sink = staging.sink(bucket, (header) =>
      logger.warning(
        `A table whose name sanitises to an empty string is not written (columns ${header.map((h) => `"${h}"`).join(',') || 'none'}), as the reference does. ` +
          'Name it with a "dataType" of ASCII letters or digits, or map it with "mappings", to keep its rows.',
      ),
    );
    const router = new MappingRouter({ mappings: configuration.output.mappings, auto: parser, sink, spoolDir: staging.spoolDir });
    this.routers.push(router);
    const output: BucketOutput = { bucket, parser, router, sink, incremental: undefined };
    this.byBucket.set(bucket, output);
    return output;
  }

  /** The routers' last tables written, then every staged table's manifest and the header-only tables. */
  async finish(configurations: Configuration[]): Promise<void> {
    const { logger, staging } = this.run;
    for (const output of this.byBucket.values()) {
      logger.debug(`Processing results for ${output.bucket ?? '__kbc_default'}.`);
      const incremental = incrementalFlag(output.incremental);
      await output.router.finish();
      this.warnUnreadParentColumns(output.router);
      const keys = output.router.primaryKeys();
      for (const table of output.sink.opened.keys()) {
        // A dropped table (empty name): without a bucket the reference still writes its manifest,
        // `out/tables/.manifest`; with one, the file stays behind in its bucket folder.
        if (table === '') {
          if (output.bucket === null) staging.setManifest('', manifestJson(null, table, incremental));
          continue;
        }
        staging.setManifest(staging.manifestName(output.bucket, table), manifestJson(output.bucket, table, incremental, keys.get(table)));
        if (incremental) this.adviseOnPrimaryKey(output.bucket, table, keys.get(table) ?? []);
      }
    }
    this.writeHeaderOnlyTables(configurations);
  }

  /** A column keyed like a parent column reads the records, where that key is not: say once which form reads it. */
  private warnUnreadParentColumns(router: MappingRouter): void {
    for (const column of router.unreadParentColumns()) {
      const userForm = JSON.stringify({ type: 'user', mapping: { destination: column.destination } });
      this.run.logger.warning(
        `${column.configPath}: column "${column.destination}" of table "${column.table}" is empty in every row: "${column.key}" is a parent column of the job, not a field of its records, and a column entry reads the records. ` +
          `Write "${column.key}": ${userForm} to read the parent column.`,
        { configPath: column.configPath },
      );
    }
  }

  /**
   * Advice, once per table: an incremental load without a primary key appends every row again on
   * each run. That may be what the user wants (an append-only log), so it is an INFO line.
   */
  private adviseOnPrimaryKey(bucket: string | null, table: string, primaryKey: readonly string[]): void {
    if (primaryKey.length > 0) return;
    const name = bucket === null ? table : `in.c-${bucket}.${table}`;
    this.run.logger.info(
      `Table ${name} is loaded incrementally without a primary key: each run appends all its rows again. ` +
        'To update rows instead, give its key columns "primaryKey": true in parameters.config.mappings; for a full load, set incrementalOutput to false.',
    );
  }

  /**
   * Header-only tables for mapped tables that received no rows (spec 04 §7.10); their manifests
   * put `incremental` first (01 §1.4).
   */
  private writeHeaderOnlyTables(configurations: Configuration[]): void {
    const { staging } = this.run;
    for (const { output, index } of configurations) {
      const { mappings } = output;
      if (mappings === undefined) continue;
      const bucket = this.bucketOfConfiguration[index] ?? null;
      for (const table of headerOnlyTables(mappings, bucket)) {
        if (staging.hasTable(table.file)) continue;
        staging.addHeaderOnly(table.file, table.header);
        const manifest = new PhpArray([['incremental', incrementalFlag(output.incremental)]]);
        if (table.destination !== null) manifest.set('destination', table.destination);
        if (table.primaryKey.length > 0) manifest.set('primary_key', [...table.primaryKey]);
        staging.setManifest(table.file, pjson(manifest, 'shortest'));
        if (incrementalFlag(output.incremental)) this.adviseOnPrimaryKey(bucket, table.table, table.primaryKey);
      }
    }
  }

  /** The routers, then the parsers (their spool files). */
  close(): void {
    for (const router of this.routers) router.close();
    for (const parser of this.parsers) parser.close();
  }
}

function incrementalFlag(v: IncrementalOutput | undefined): boolean {
  if (v === 'invalid')
    throw new ApplicationError(INCREMENTAL_MESSAGE, {
      context: { configPath: 'parameters.config.incrementalOutput' },
      hint: INCREMENTAL_HINT,
    });
  return v === true;
}

function manifestJson(bucket: string | null, table: string, incremental: boolean, primaryKey: readonly string[] = []): string {
  const manifest = new PhpArray();
  if (bucket !== null) manifest.set('destination', `in.c-${bucket}.${table}`);
  manifest.set('incremental', incremental);
  if (primaryKey.length > 0) manifest.set('primary_key', [...primaryKey]);
  return pjson(manifest, 'shortest');
}
