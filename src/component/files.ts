/** The data-folder contract (spec 01 §1.1–§1.3): where things are and how they are read. */
import fs from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { decodeJson, decodeUtf8Lossy } from '../php/jsonDecode.ts';
import { jsonSyntaxPlace } from './jsonSyntax.ts';
import { PhpArray, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';

export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const stripped = (env['KBC_DATADIR'] ?? '').replace(/\/+$/, '');
  return stripped === '' ? '/data' : stripped;
}

/**
 * The folders a run writes (`out/tables`, `out/`, or the data folder that `out/` is made in) must
 * be writable before anything is read from the API: a data folder owned by another user (a local
 * `docker run -v ./data:/data` as uid 1000 on a folder of the host's user) is the user's to fix,
 * so it is one user error (exit 1) naming the folder and the fix, not an EACCES stack trace.
 */
export function checkDataDirWritable(dataDir: string): void {
  const out = path.join(dataDir, 'out');
  const tables = path.join(out, 'tables');
  const written = fs.existsSync(out) ? [out, ...(fs.existsSync(tables) ? [tables] : [])] : [dataDir];
  for (const dir of written) {
    try {
      fs.accessSync(dir, fs.constants.W_OK);
    } catch (e) {
      throw new UserError(notWritableMessage(dir, (e as NodeJS.ErrnoException).code));
    }
  }
}

function notWritableMessage(dir: string, code: string | undefined): string {
  if (code === 'EROFS') return `The data folder cannot be written: ${dir} is on a read-only file system. Mount the data folder read-write.`;
  const user = `uid ${process.getuid?.() ?? '?'}, gid ${process.getgid?.() ?? '?'}`;
  return (
    `The data folder cannot be written: ${dir} is not writable by this process (${user}). ` +
    `Run the container as the folder's owner (docker run --user "$(id -u):$(id -g)" …) or make it writable for ${user}.`
  );
}

/** Configuration root: an object (PhpArray) or a list. Missing or invalid → application error. */
export function readConfigFile(dataDir: string): PhpArray | Value[] {
  const file = path.join(dataDir, 'config.json');
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    throw new ApplicationError(`Configuration file '${dataDir}/config.json' not found.`, {
      hint: 'Point the extractor at the folder holding config.json: KBC_DATADIR=/path/to/data ex-generic, or ex-generic --data /path/to/data (run, validate and plan).',
    });
  }
  // PHP's json_decode refuses invalid UTF-8 in the file (01 §2.4 A2) instead of dropping it.
  if (!isUtf8(bytes))
    throw new ApplicationError('Configuration file is not a valid JSON: Malformed UTF-8 characters, possibly incorrectly encoded');
  let value: Value;
  const text = bytes.toString('utf8');
  try {
    value = decodeJson(text, 'config');
  } catch (e) {
    if (e instanceof JsonDecodeError)
      throw new ApplicationError(`Configuration file is not a valid JSON: ${e.reason}${e.code === 'depth' ? '' : syntaxErrorPlace(text)}`);
    throw e;
  }
  if (!(value instanceof PhpArray) && !Array.isArray(value)) {
    throw new ApplicationError(
      `Configuration file '${dataDir}/config.json' must contain a JSON object, ${value === null ? 'null' : typeof value} given.`,
    );
  }
  return value;
}

/** " at line L, column C: <problem>." for a config.json that is not JSON; empty when no place is found. */
function syntaxErrorPlace(text: string): string {
  const place = jsonSyntaxPlace(text);
  return place === undefined ? '' : ` at line ${place.line}, column ${place.column}: ${place.problem}.`;
}

/**
 * `in/state.json`: optional; invalid → WARNING and an empty state. Missing is every first run's
 * normal case: the reference's WARNING text, at INFO (nothing to act on; docs/migration.md).
 */
export function readInputState(dataDir: string, logger: Logger): PhpArray {
  const file = path.join(dataDir, 'in', 'state.json');
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    logger.info(`State file not found Configuration file '${dataDir}/in/state.json' not found.`);
    return new PhpArray();
  }
  let value: Value;
  try {
    value = decodeJson(decodeUtf8Lossy(bytes), 'config');
  } catch (e) {
    if (!(e instanceof JsonDecodeError)) throw e;
    logger.warning(`State file not found Configuration file is not a valid JSON: ${e.reason}`);
    return new PhpArray();
  }
  if (Array.isArray(value)) return new PhpArray(value.map((v, i) => [String(i), v]));
  if (!(value instanceof PhpArray)) throw new ApplicationError(`State file '${dataDir}/in/state.json' must contain a JSON object.`);
  return value;
}
