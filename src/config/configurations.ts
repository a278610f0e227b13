/**
 * One configuration per iteration (spec 01 §2.3, 02 §13): `parameters.config` with each
 * iteration item's top-level keys replacing the same keys.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { isEmpty, isMap, member, PhpArray, phpType, type Value } from '../php/value.ts';
import { jobTree, type JobNode } from './jobTree.ts';
import { outputOptionsOf, type OutputOptions } from './outputOptions.ts';
import { validateConfigSection } from './validate.ts';

export interface Configuration {
  /** 0-based iteration index (0 when there are no iterations). */
  index: number;
  /** `parameters.config` after the iteration merge. */
  config: PhpArray;
  /** Where a top-level key of `config` came from, for error messages. */
  pathOf(key: string): string;
  /** Output options (bucket, incremental manifests, compat level, mappings, debug), parsed once. */
  output: OutputOptions;
  /** The job tree of `config.jobs`, parsed once (what the pre-flight checks and `plan` read). */
  jobs: JobNode[];
}

function asMap(v: Value | undefined): PhpArray {
  if (v instanceof PhpArray) return v;
  if (Array.isArray(v)) return new PhpArray(v.map((x, i) => [String(i), x] as const));
  return new PhpArray();
}

/** Builds and validates every configuration before any request (01 §1.6 step 5). */
export function buildConfigurations(parameters: Value | undefined): Configuration[] {
  const base = member(parameters, 'config');
  const iterations = member(parameters, 'iterations');
  if (!isEmpty(iterations) && !Array.isArray(iterations) && !isMap(iterations)) {
    throw new UserError(
      `The 'iterations' parameter must be a list of objects (one set of configuration attributes per run), ${phpType(iterations!)} given. Fix or remove "parameters.iterations".`,
      { configPath: 'parameters.iterations' },
    );
  }
  const items: (Value | undefined)[] = isEmpty(iterations)
    ? [undefined]
    : Array.isArray(iterations)
      ? iterations
      : [...(iterations as PhpArray).values()];
  const configurations: Configuration[] = [];
  items.forEach((item, index) => {
    if (item !== undefined && !isMap(item) && !Array.isArray(item)) {
      throw new ApplicationError(`Iteration ${index} must be an object.`, { context: { path: `parameters.iterations[${index}]` } });
    }
    if (isEmpty(base)) {
      throw new UserError("The 'config' section is required in the configuration.", { configPath: 'parameters.config' });
    }
    const merged = new PhpArray(asMap(base));
    const overridden = new Set<string>();
    if (item !== undefined) {
      for (const [k, v] of asMap(item)) {
        merged.set(k, v);
        overridden.add(k);
      }
    }
    const pathOf = (key: string): string => (overridden.has(key) ? `parameters.iterations[${index}].${key}` : `parameters.config.${key}`);
    const jobsOrigin = overridden.has('jobs') ? `parameters.iterations[${index}]` : 'parameters.config';
    validateConfigSection(merged, jobsOrigin);
    configurations.push({ index, config: merged, pathOf, output: outputOptionsOf(merged), jobs: jobTree(merged.get('jobs'), jobsOrigin) });
  });
  return configurations;
}

/** Configuration attributes: every key but `jobs` (02 §0). */
export function attributesOf(config: PhpArray): PhpArray {
  const attrs = new PhpArray(config);
  attrs.delete('jobs');
  return attrs;
}
