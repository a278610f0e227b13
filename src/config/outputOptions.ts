/**
 * The output options of one configuration (spec 01 §1.4, §1.6; 04 §3, §7), parsed once with the
 * reference's ways of reading them: where its tables go, whether their manifests are incremental,
 * which automatic parser it uses, its user mappings and its log level.
 */
import { phpIntval } from '../php/intval.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, type PhpArray, truthy, type Value } from '../php/value.ts';

/**
 * `incrementalOutput` as the manifests use it: PHP-empty is `false`, exactly `true` is `true`;
 * any other value (`"true"`, `1`, `"yes"`) is `'invalid'`: the reference crashes with
 * "incrementalOutput must be a boolean." when it writes the manifests, and so do we, at that moment.
 */
export type IncrementalOutput = boolean | 'invalid';

export interface OutputOptions {
  /** A PHP-non-empty `outputBucket` as text (`"0"` is PHP-empty: none); see `bucketOf`. */
  outputBucket: string | null;
  /** A PHP-non-empty `id` as text; names the bucket when there is no `outputBucket`. */
  id: string | null;
  incremental: IncrementalOutput;
  /** The effective compatibility level (04 §3, 03 §3.4): 1 = legacy parser; 3 = current. */
  compatLevel: number;
  /**
   * `mappings` as configured, `undefined` when PHP-empty (everything goes to the automatic parser).
   * Parsed by `src/mapping/user/config.ts` when the bucket's router is built: its checks belong to
   * that moment, and child mappers are parsed while data arrives.
   */
  mappings: Value | undefined;
  /** `debug` (PHP truthiness): the configuration's run logs at debug level. */
  debug: boolean;
}

export function incrementalOutputOf(v: Value | undefined): IncrementalOutput {
  if (isEmpty(v)) return false;
  return v === true ? true : 'invalid';
}

/** `(int) compatLevel`, or 3 when PHP-empty (`"2"` is 2, `"abc"` is 0, `1.9` is 1). */
export function compatLevelOf(v: Value | undefined): number {
  return isEmpty(v) ? 3 : phpIntval(v);
}

function textOrNull(v: Value | undefined): string | null {
  return isEmpty(v) ? null : phpString(v!);
}

/** The bucket: `outputBucket`; else `ex-api-<api name>-<id>`; else none (tables at the top of out/tables). */
export function bucketOf(options: OutputOptions, apiName: string): string | null {
  if (options.outputBucket !== null) return options.outputBucket;
  if (options.id !== null) return `ex-api-${apiName}-${options.id}`;
  return null;
}

/** The output options of `config` (`parameters.config` after the iteration merge). */
export function outputOptionsOf(config: PhpArray): OutputOptions {
  const mappings = config.get('mappings');
  return {
    outputBucket: textOrNull(config.get('outputBucket')),
    id: textOrNull(config.get('id')),
    incremental: incrementalOutputOf(config.get('incrementalOutput')),
    compatLevel: compatLevelOf(config.get('compatLevel')),
    mappings: isEmpty(mappings) ? undefined : mappings,
    debug: truthy(config.get('debug')),
  };
}
