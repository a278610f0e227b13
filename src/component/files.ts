/** The data-folder contract (spec 01 §1.1–§1.3): where things are and how they are read. */
import fs from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { decodeJson, decodeUtf8Lossy } from '../php/jsonDecode.ts';
import { jsonSyntaxPlace } from './jsonSyntax.ts';
import { PhpArray, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';

export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const stripped = (env['KBC_DATADIR'] ?? '').replace(/\/+$/, '');
  return stripped === '' ? '/data' : stripped;
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
