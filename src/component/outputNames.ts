/**
 * Bucket and table names the configuration gives (`outputBucket`, `id`, `api.name`, the keys and
 * `destination`s of `mappings`) become file names in `out/tables` (spec 01 §1.4) and table names
 * on the platform. One that cannot be a file — a "/" (the reference's flattening of
 * `out/tables/<bucket>/<table>` cannot hold it either), a "\\" or a NUL, a name too long — is a
 * user error before any request, naming where it is written: the reference would request every
 * page and fail only when it writes its tables, and the platform allows none of these
 * characters in its names. Names made while data arrives (the automatic parser's) are checked
 * when their table is opened (src/output/staging.ts).
 */
import { bucketOf } from '../config/outputOptions.ts';
import type { Configuration } from '../config/configurations.ts';
import { UserError } from '../errors/UserError.ts';
import { headerOnlyTables } from '../mapping/headerOnly.ts';
import { mappingsPath } from '../mapping/user/errors.ts';
import { type FileNameProblem, fileNameProblem } from '../output/staging.ts';

/** Throws when a bucket or mapped table name of `configuration` cannot be a file in `out/tables`. */
export function checkOutputNames(configuration: Configuration, apiName: string): void {
  const bucket = bucketOf(configuration.output, apiName);
  if (bucket !== null) checkBucket(configuration, apiName, bucket);
  for (const table of mappedTables(configuration, bucket)) {
    const problem = fileNameProblem(table.file);
    if (problem === undefined) continue;
    // A mapping's key is the dataType of the jobs it maps: both change together.
    const fix =
      table.configPath === mappingsPath(table.table)
        ? `Key the mapping by ${suggestion(table.table, problem)} instead (letters, digits, "-" and "_") and set "dataType" to the same on the jobs it maps.`
        : `Use ${suggestion(table.table, problem)} instead (letters, digits, "-" and "_").`;
    throw new UserError(
      `${table.configPath}: the table name "${table.table}" ${problemText(problem, table.table, table.file)}, so the table cannot be written to out/tables. ${fix}`,
      {
        configPath: table.configPath,
      },
    );
  }
}

function checkBucket(configuration: Configuration, apiName: string, bucket: string): void {
  const problem = fileNameProblem(bucket);
  if (problem === undefined) return;
  const { outputBucket, id } = configuration.output;
  // Without outputBucket the bucket is ex-api-<api.name>-<id>: the part that holds the character is named.
  const [path, part] =
    outputBucket !== null
      ? [configuration.pathOf('outputBucket'), outputBucket]
      : fileNameProblem(apiName) !== undefined
        ? ['parameters.api.name', apiName]
        : [configuration.pathOf('id'), id ?? ''];
  const made = outputBucket !== null ? '' : ' (ex-api-<api.name>-<id>)';
  throw new UserError(
    `${path}: the bucket "${bucket}"${made} ${problemText(problem, part, bucket)}, so its tables cannot be written to out/tables (as <bucket>.<table>). Use ${suggestion(part, problem)} instead (letters, digits, "-" and "_").`,
    { configPath: path },
  );
}

/**
 * The mapped tables as the reference writes them at the end (04 §7.10: every key and nested
 * destination). A mapping the reference rejects there raises that error then, not now.
 */
function mappedTables(configuration: Configuration, bucket: string | null): ReturnType<typeof headerOnlyTables> {
  try {
    return headerOnlyTables(configuration.output.mappings, bucket);
  } catch (error) {
    if (error instanceof UserError) return [];
    throw error;
  }
}

/** The problem, with the character named when the name holds one a file name cannot. */
function problemText(problem: FileNameProblem, name: string, file: string): string {
  if (problem.kind === 'tooLong')
    return `is too long for a file name (its manifest's name would be ${Buffer.byteLength(`${file}.manifest`)} bytes; at most 255)`;
  const character = /[/\\\0]/.exec(name)?.[0];
  return character === undefined ? problem.text : `contains ${character === '\0' ? 'a NUL character' : `"${character}"`}`;
}

/** The fix: for a character a file name cannot hold, the name with the platform's characters only. */
function suggestion(name: string, problem: FileNameProblem): string {
  if (problem.kind === 'tooLong') return 'a shorter name';
  const plain = name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return plain === '' ? 'another name' : `"${plain}"`;
}
