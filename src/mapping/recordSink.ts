import type { Value } from '../php/value.ts';

/** Parent columns of a batch: userData and `parent_*` placeholder values, ordered. */
export type ParentColumns = Map<string, Value>;

/** Where the job layer hands each page's records (spec 04 §0, "batch"). */
export interface RecordSink {
  addBatch(records: Value[], dataType: string, parentColumns: ParentColumns): void;
}
