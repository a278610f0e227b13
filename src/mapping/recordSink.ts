import type { Value } from '../php/value.ts';
import type { ParentColumns } from './auto/parentColumns.ts';

/** Where the job layer hands each page's records (spec 04 §0, "batch"). */
export interface RecordSink {
  addBatch(records: Value[], dataType: string, parentColumns: ParentColumns): void;
}
