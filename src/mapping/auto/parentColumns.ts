import type { Value } from '../../php/value.ts';

/**
 * The parent columns of a batch: userData and `parent_*` placeholder values, ordered; an empty
 * map = none. Defined here, below the record sink (../recordSink.ts) and the router, because the
 * automatic parser adds them to its rows (the router hands the same map to the user mappings).
 */
export type ParentColumns = Map<string, Value>;
