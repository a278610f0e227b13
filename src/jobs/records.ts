/** Locating the records of a response (spec 03 §3.2, §3.3). */
import { UserError } from '../errors/UserError.ts';
import type { DataField } from './dataField.ts';
import { isEmpty, JsonObject, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { logJsonValue } from './logValue.ts';
import { lookup } from '../php/pathLookup.ts';
import type { RecordsAt } from '../php/jsonDecode.ts';

/**
 * Where `extractRecords` will look for the records of a response, for the decoder to keep that
 * array lazy when the response is large (src/php/jsonDecode.ts `RecordsAt`); undefined when the
 * dataField is not usable (extractRecords reports it).
 */
export function recordsAt(dataField: DataField): RecordsAt | undefined {
  if (dataField.kind === 'auto') return 'root-members';
  if (dataField.kind === 'missingPath') return undefined;
  const { path, delimiter } = dataField;
  // As lookupStrict (src/php/pathLookup.ts) splits it.
  if (path === delimiter) return [];
  return delimiter === '' ? [path] : path.split(delimiter);
}

/** The records of a response at the job's `dataField` (parsed by dataField.ts). */
export function extractRecords(response: Value, dataField: DataField, endpoint: string, logger: Logger, jobPath = 'job'): Value[] {
  if (dataField.kind === 'missingPath') {
    throw new UserError("'dataField.path' must be set!", { configPath: `${jobPath}.dataField.path` });
  }
  if (dataField.kind === 'path') {
    const { path } = dataField;
    const v = lookup(path, response, dataField.delimiter);
    if (isEmpty(v) && !(v instanceof JsonObject)) {
      logger.warning(`dataField '${path}' contains no data!`);
      return [];
    }
    return Array.isArray(v) ? v : [v];
  }
  if (Array.isArray(response)) return response;
  if (response instanceof JsonObject) {
    const arrays = [...response].filter(([, v]) => Array.isArray(v));
    if (arrays.length === 1) return arrays[0]![1] as Value[];
    if (arrays.length === 0) {
      logger.warning(`No data array found in response! (endpoint: ${endpoint})`, { response: logJsonValue(response) });
      return [];
    }
    throw new UserError(
      `More than one array found in response! Use 'dataField' parameter to specify a key to the data array. (endpoint: ${endpoint}, arrays in response root: ${arrays.map(([k]) => k).join(', ')})`,
      { configPath: `${jobPath}.dataField` },
    );
  }
  throw new UserError('Unknown response from API.');
}
