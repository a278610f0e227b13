/**
 * One configuration per iteration (spec 01 §2.3, 02 §13): `parameters.config` with each
 * iteration item's top-level keys replacing the same keys.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { childPath, itemPath } from '../errors/configPath.ts';
import { UserError } from '../errors/UserError.ts';
import { isEmpty, isMap, member, PhpArray, phpType, type Value } from '../php/value.ts';
import { jobLists, type JobNode, type RunList } from '../jobs/jobNode.ts';
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
  /** The job objects of `config.jobs` as written, parsed once (what the pre-flight checks and `plan` read). */
  jobs: JobNode[];
  /** The same jobs as the page loop runs them (merged by identity, lists read as maps; see `jobLists`). */
  run: RunList;
  /** `userData` as configured: extra columns of the top-level jobs' rows, evaluated per job instance. */
  userData: Value | undefined;
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
      // A PHP type error in the reference: exit 2 with its message, naming the item.
      throw new ApplicationError(`Iteration ${index} must be an object.`, {
        context: { configPath: `parameters.iterations[${index}]` },
        hint: `parameters.iterations[${index}] is ${phpType(item)}: write an object of configuration attributes, e.g. {"id": "2024"}, or remove it.`,
      });
    }
    if (isEmpty(base)) {
      throw new UserError("The 'config' section is required in the configuration.", { configPath: 'parameters.config' });
    }
    configurations.push(configurationOf(base, item, index, true));
  });
  return configurations;
}

/** One configuration: `parameters.config` with the iteration item's top-level keys replacing the same keys. */
function configurationOf(base: Value | undefined, item: Value | undefined, index: number, validate: boolean): Configuration {
  const merged = new PhpArray(asMap(base));
  const overridden = new Set<string>();
  if (item !== undefined) {
    for (const [k, v] of asMap(item)) {
      merged.set(k, v);
      overridden.add(k);
    }
  }
  const origin = itemPath('parameters.iterations', index);
  const pathOf = (key: string): string => childPath(overridden.has(key) ? origin : 'parameters.config', key);
  const jobsOrigin = overridden.has('jobs') ? origin : 'parameters.config';
  if (validate) validateConfigSection(merged, jobsOrigin);
  const { written, run } = jobLists(merged.get('jobs'), jobsOrigin);
  return { index, config: merged, pathOf, output: outputOptionsOf(merged), jobs: written, run, userData: merged.get('userData') };
}

/**
 * Every configuration that can be built without the reference's checks, for the hints logged
 * when those checks fail (src/component/checks.ts): findings such as an `outputBucket` written
 * with `in.c-` need the parsed configuration, and usually still apply. One that cannot be built
 * at all is left out.
 */
export function configurationsForHints(parameters: Value | undefined): Configuration[] {
  const base = member(parameters, 'config');
  if (isEmpty(base) || (!isMap(base) && !Array.isArray(base))) return [];
  const iterations = member(parameters, 'iterations');
  const items: (Value | undefined)[] = isEmpty(iterations)
    ? [undefined]
    : Array.isArray(iterations)
      ? iterations
      : isMap(iterations)
        ? [...iterations.values()]
        : [undefined];
  const configurations: Configuration[] = [];
  items.forEach((item, index) => {
    if (item !== undefined && !isMap(item) && !Array.isArray(item)) return;
    try {
      configurations.push(configurationOf(base, item, index, false));
    } catch {
      // Only hints are computed from it: a configuration too broken to parse gives none.
    }
  });
  return configurations;
}

/** Configuration attributes: every key but `jobs` (02 §0). */
export function attributesOf(config: PhpArray): PhpArray {
  const attrs = new PhpArray(config);
  attrs.delete('jobs');
  return attrs;
}
