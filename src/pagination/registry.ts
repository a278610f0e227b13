/**
 * Pagination methods by name (`api.pagination.method`). Each method lives in its own file and
 * registers itself with its spec: the schema nodes of its options (src/config/ assembles them into
 * the configuration schema, scripts/docs renders them, the parser reads its defaults from them),
 * an example and the factory of its scroller.
 */
import { UserError } from '../errors/UserError.ts';
import type { PhpArray, Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { OptionsSpec } from '../spec/componentSpec.ts';
import type { Scroller } from './scroller.ts';

export interface ScrollerSetup {
  /** The pagination configuration of this scroller (an entry of `multiple` for nested ones). */
  config: PhpArray;
  logger: Logger;
  /** Builds a nested scroller from a configuration (used by `multiple`). */
  build(config: Value, path: string): Scroller;
  /** Config path of this scroller's configuration, for messages. */
  path: string;
  nowMs: () => number;
}

/** The Python semantics the sync actions read options with (spec 05: the helper is Python). */
export interface HelperValues {
  str(v: Value): string;
  truthy(v: Value | undefined): boolean;
}

export interface PaginationMethodSpec extends OptionsSpec {
  method: string;
  /** A working `api.pagination` and what it sends, rendered in docs/pagination.md. */
  example: { pagination: Record<string, unknown>; sends: string };
  create(setup: ScrollerSetup): Scroller;
  /**
   * The sync actions' first-page parameters where the helper's rule differs from the run's (spec
   * 05 §4.2 step 5), in order. Absent: the sync actions take the scroller's own first request, so
   * a new method works in `test_request` with no change in src/actions.
   */
  helperFirstPage?(config: ReadonlyMap<string, Value>, values: HelperValues): [string, Value][];
}

const methods = new Map<string, PaginationMethodSpec>();

export function registerPaginationMethod(spec: PaginationMethodSpec): void {
  methods.set(spec.method, spec);
}

export function paginationMethods(): string[] {
  return [...methods.keys()];
}

/** The registered specs in registration order (the order of pagination/index.ts's imports). */
export function paginationMethodSpecs(): PaginationMethodSpec[] {
  return [...methods.values()];
}

export function getPaginationMethod(name: string, shown: string, path: string): PaginationMethodSpec {
  const spec = methods.get(name);
  if (!spec) {
    throw new UserError(`Unknown pagination method '${shown}'`, {
      configPath: `${path}.method`,
      context: { knownMethods: paginationMethods() },
    });
  }
  return spec;
}
