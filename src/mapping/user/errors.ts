/**
 * Error texts of the user-defined mapper (spec 04 §7). Byte-exact: users grep logs for them.
 */
import { childPath } from '../../errors/configPath.ts';
import { UserError } from '../../errors/UserError.ts';

/** Prefix of every error raised while a mapper reads its own configuration (04 §7.8). */
export const BAD_MAPPING_PREFIX = 'Bad Json to CSV Mapping configuration: ';

/** A mapping-configuration problem found while processing data (prefixed, 04 §7.3–§7.5). */
export function badMapping(message: string, configPath: string): UserError {
  return new UserError(BAD_MAPPING_PREFIX + message, { configPath });
}

/** A non-scalar value that reached a CSV cell (04 §7.8). */
export function badData(dataType: string, columns: readonly string[], firstValueExport: string, configPath: string): UserError {
  return new UserError(
    `Error saving '${dataType}' data to CSV column: Error writing '${columns.join(',')}' column: Cannot write data into column: ${firstValueExport}`,
    { configPath },
  );
}

/** Two producers of one table name disagree on the header (04 §7.9). */
export function differentColumns(table: string): UserError {
  return new UserError(`Multiple results for '${table}' table have different columns!`, { configPath: 'parameters.config.mappings' });
}

/** Configuration path of a mapping key: `parameters.config.mappings.<dataType>`. */
export function mappingsPath(dataType: string): string {
  return childPath('parameters.config.mappings', dataType);
}
