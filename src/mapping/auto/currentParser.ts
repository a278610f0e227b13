/**
 * Automatic parser, current mode (spec 04 §4): analysis on arrival, rows at the end.
 */
import { JsonObject, PhpArray, type Value, type ValueMap } from '../../php/value.ts';
import { pjsonOrFalse } from '../../php/jsonEncode.ts';
import { md5OfSerialized } from '../../php/serialize.ts';
import { csvCell } from '../../output/csvCell.ts';
import { writeValueRow, type TableSink, type TableWriter } from '../../output/tableSink.ts';
import { ApplicationError } from '../../errors/ApplicationError.ts';
import { UserError } from '../../errors/UserError.ts';
import { safe } from './names.ts';
import { type SNode, type Structure, currentStructureVersion, notAParentColumn } from './structure.ts';
import { StructureError } from '../../errors/StructureError.ts';
import { type Pause, SLICE_RECORDS } from '../../output/pause.ts';

export const PARSE_ERROR_PREFIX = 'Error parsing response JSON: ';

/** Lazily computed link value: `clean + "_" + md5(serialize(record) + outer)` (§4.6). */
export class LinkRef {
  private readonly clean: string;
  private readonly record: Value;
  private readonly outer: LinkRef | null;
  private value: string | undefined;

  /** `digest`: the md5 part, when it was computed beforehand (spooled with the record). */
  constructor(clean: string, record: Value, outer: LinkRef | null, digest?: string) {
    this.clean = clean;
    this.record = record;
    this.outer = outer;
    if (digest !== undefined) this.value = clean + '_' + digest;
  }

  get(): string {
    if (this.value === undefined) {
      // md5 of the UTF-8 bytes of serialize(record) + outer (the outer value first: one shared buffer).
      const outer = this.outer ? this.outer.get() : '';
      this.value = this.clean + '_' + md5OfSerialized(this.record, outer);
    }
    return this.value;
  }
}

interface Column {
  /** Raw property name. */
  c: string;
  /** Node type, or `string` for parent columns. */
  t: string;
  /** The child node `_c` (if it exists). */
  node: SNode | undefined;
  /** Clean path of the child (link prefix / table path for lists and nested objects). */
  clean: string;
  /** Header name and slot when the plan was made (names are looked up live, see slotOf). */
  name: string;
  slot: number;
  /** For a nested object: the slot in this plan of each cell of the child plan it was made for. */
  nested?: { plan: Plan; slots: Int32Array };
}

interface Plan {
  version: number;
  header: string[];
  /** Distinct header names (PHP array keys) → cell slot. */
  slots: Map<string, number>;
  names: string[];
  /** A row of nulls as long as `names` (copied for each row). */
  blank: Value[];
  cols: Column[];
}

/** Rejects list / configuration-map parent values (non-empty), as the reference does. */
export function checkParentValues(pc: readonly (readonly [string, Value])[]): void {
  for (const [key, v] of pc) {
    if ((Array.isArray(v) && v.length > 0) || (v instanceof PhpArray && v.size > 0)) {
      // The reference's message, then which column and what to do (it names neither).
      throw new UserError(
        'Error assigning parentId to a CSV file! $parentId array cannot be multidimensional. ' +
          `The column '${key}' (a "userData" key, or a child job's placeholder) holds a list or an object; ` +
          'give userData scalar values (a structure can be written as a JSON string).',
        { context: { column: key } },
      );
    }
  }
}

/** Scalar / null items become `{"data": item}`, lists `{"data": JSON}` (§4.6, §4.8). */
export function wrapItem(item: Value): ValueMap {
  if (item instanceof Map) return item;
  const o = new JsonObject();
  o.set('data', Array.isArray(item) ? pjsonOrFalse(item, 'p17') : item);
  return o;
}

/** A copy of `r` with the parent columns set (existing properties overwritten in place). */
export function mergeParents(r: ValueMap, pc: readonly (readonly [string, Value])[]): ValueMap {
  const copy = r instanceof JsonObject ? new JsonObject(r) : new PhpArray(r);
  for (let i = 0; i < pc.length; i++) copy.set(pc[i]![0], pc[i]![1]);
  return copy;
}

export function assignError(value: Value, name: string): ApplicationError {
  let text: string;
  try {
    text = csvCell(value);
  } catch {
    text = '';
  }
  return new ApplicationError(`Error assigning '${text}' to a non-existing column '${name}'!`);
}

export class CurrentOutput {
  private readonly structure: Structure;
  private readonly sink: TableSink;
  private readonly tables = new Map<string, TableWriter>();
  private readonly tableNames = new Map<string, string>();
  private readonly plans = new WeakMap<SNode, Map<string, Plan>>();

  /**
   * The records are this output's own (decoded from the spool for it alone): the parent columns
   * are then set on a record itself instead of on a copy. Nothing reads a record after its row:
   * the link hash of a row, and of each of its ancestors, is computed before its lists are
   * written (`link.get()` comes first), so no hash sees a parent column added to an item.
   */
  private readonly ownsRecords: boolean;

  constructor(structure: Structure, sink: TableSink, ownsRecords = false) {
    this.structure = structure;
    this.sink = sink;
    this.ownsRecords = ownsRecords;
  }

  /** Output of one queued batch (§4.6). */
  emitBatch(records: readonly Value[] | RecordStream, dataType: string, parentColumns: Map<string, Value>): void {
    this.batchWriter(dataType, parentColumns)(records);
  }

  /**
   * The output of one queued batch in parts: call the returned function with consecutive slices
   * of the batch's records (at least once, in order); the result is that of `emitBatch` with all
   * of them. The aliased parent entries are computed once and shared by the slices, as in one
   * `emitList` call (opening the table may alias and reorder them, §4.5).
   */
  batchWriter(dataType: string, parentColumns: Map<string, Value>): (records: readonly Value[] | RecordStream) => void {
    const dt = this.structure.root.props.get(dataType);
    const aliases = this.structure.aliases;
    const pc: [string, Value][] = [];
    for (const [k, v] of parentColumns) pc.push([aliases.get(k) ?? k, v]);
    checkParentValues(pc);
    const row = dt?.items;
    return (records) => this.emitList(records, row, dataType, pc);
  }

  /**
   * Output of one queued batch whose records are decoded as they are consumed, in slices of
   * records with a pause between them (a long batch would otherwise hold the thread).
   */
  async writeStreamed(batch: RecordStream & { dataType: string; parentColumns: Map<string, Value> }, pause: Pause): Promise<void> {
    const write = this.batchWriter(batch.dataType, batch.parentColumns);
    let left = batch.count;
    do {
      const n = Math.min(left, SLICE_RECORDS);
      write(n === batch.count ? batch : { count: n, next: batch.next });
      left -= n;
      await pause.maybe();
    } while (left > 0);
  }

  private tableName(clean: string): string {
    let t = this.tableNames.get(clean);
    if (t === undefined) {
      t = safe(clean);
      this.tableNames.set(clean, t);
    }
    return t;
  }

  /** `emitList(items, P, parent)` with the aliased parent entries `pc` (may be reordered, §4.5). */
  private emitList(items: readonly Value[] | RecordStream, row: SNode | undefined, clean: string, pc: [string, Value][]): void {
    const tableName = this.tableName(clean);
    let writer = this.tables.get(tableName);
    if (writer === undefined) {
      if (row && pc.length > 0) this.structure.registerParents(row, pc);
      const header = row ? this.headers(row) : [];
      writer = this.sink.open(tableName, header);
      this.tables.set(tableName, writer);
    }
    const n = pc.length;
    const keys = n === 0 ? NO_KEYS : n === 1 ? [pc[0]![0]] : pc.map((e) => e[0]);
    const sig = n === 0 ? '' : n === 1 ? keys[0]! : keys.join('\u0000');
    const list = Array.isArray(items) ? (items as readonly Value[]) : undefined;
    const stream = list === undefined ? (items as RecordStream) : undefined;
    const count = list !== undefined ? list.length : stream!.count;
    for (let i = 0; i < count; i++) {
      const item = list !== undefined ? list[i]! : stream!.next();
      const digest = stream?.digest?.();
      let r = wrapItem(item);
      if (n > 0) {
        if (r === item && !this.ownsRecords) r = mergeParents(r, pc);
        else for (let j = 0; j < n; j++) r.set(pc[j]![0], pc[j]![1]);
      }
      const plan = this.plan(row, clean, keys, sig);
      const values = this.emitRow(r, row, clean, plan, null, digest);
      writeValueRow(writer, values);
    }
  }

  /** `headers(P, none)` of a node (§4.6). */
  private headers(node: SNode): string[] {
    const h: string[] = [];
    this.collectHeaders(node, h);
    return h;
  }

  private collectHeaders(node: SNode, h: string[]): void {
    if (node.nodeType === 'scalar') h.push(node.headerNames ?? '');
    for (const v of node.entries.values()) {
      if (typeof v === 'string') continue;
      if (v.nodeType === 'object') this.collectHeaders(v, h);
      else h.push(v.headerNames ?? '');
    }
  }

  /** The row plan of `row` with parent keys `keys` (registers them first, §4.5). */
  private plan(row: SNode | undefined, clean: string, keys: readonly string[], sig: string): Plan {
    if (!row) return emptyPlan(keys);
    let byKeys = this.plans.get(row);
    if (byKeys === undefined) {
      byKeys = new Map();
      this.plans.set(row, byKeys);
    }
    if (keys.length > 0 && unregistered(row, keys)) {
      // The row's header registers its parent keys (04 §4.5) on a copy of them: a key not
      // registered as a parent column yet (a table reached after its creation under other keys,
      // or whose file another path created first) is registered again for every row, and one
      // that clashes with a property gets a new `_uN` alias each time — rows grow wider than the
      // header, as the reference's do (issue 22). Such a plan is not cached.
      const entries: [string, Value][] = keys.map((k) => [k, null]);
      this.structure.registerParents(row, entries);
      return this.makePlan(
        row,
        clean,
        entries.map((e) => e[0]),
      );
    }
    const cached = byKeys.get(sig);
    if (cached !== undefined && cached.version === currentStructureVersion()) return cached;
    const plan = this.makePlan(row, clean, keys);
    byKeys.set(sig, plan);
    return plan;
  }

  private makePlan(row: SNode, clean: string, keys: readonly string[]): Plan {
    const header = this.headers(row);
    const slots = new Map<string, number>();
    const names: string[] = [];
    for (const h of header) {
      if (!slots.has(h)) {
        slots.set(h, names.length);
        names.push(h);
      }
    }
    const cols: Column[] = [];
    const add = (c: string, t: string, node: SNode | undefined): void => {
      const name = node?.headerNames ?? row.headerNames ?? '';
      cols.push({ c, t, node, clean: clean + '.' + c, name, slot: slots.get(name) ?? -1 });
    };
    if (row.nodeType === 'object') {
      for (const [enc, v] of row.entries) {
        if (typeof v === 'string') continue;
        add(enc === '[]' ? '[]' : enc.slice(1), v.nodeType ?? '', v);
      }
    } else if (row.nodeType === 'scalar') {
      add('data', 'scalar', row.props.get('data'));
    }
    for (const k of keys) {
      const existing = cols.find((col) => col.c === k);
      if (existing) existing.t = 'string';
      else add(k, 'string', row.props.get(k));
    }
    const blank: Value[] = [];
    for (let i = 0; i < names.length; i++) blank.push(null);
    return { version: currentStructureVersion(), header, slots, names, blank, cols };
  }

  /** `emitRow(r, P, parentKeys, outer)`: returns the cell values in header order. */
  private emitRow(r: ValueMap, row: SNode | undefined, clean: string, plan: Plan, outer: LinkRef | null, digest?: string): Value[] {
    const values = plan.blank.slice();
    const link = new LinkRef(clean, r, outer, digest);
    const cols = plan.cols;
    for (let i = 0; i < cols.length; i++) {
      const col = cols[i]!;
      const v = r.get(col.c);
      if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) {
        if (col.t !== 'object') values[slotOf(plan, col, row, true, null)] = null;
        continue;
      }
      if (col.t === 'array') {
        const list = Array.isArray(v) ? v : [v];
        const linkValue = link.get();
        values[slotOf(plan, col, row, false, linkValue)] = linkValue;
        const key = this.structure.aliases.get('JSON_parentId') ?? 'JSON_parentId';
        this.emitList(list, col.node?.items, col.clean, [[key, linkValue]]);
      } else if (col.t === 'object' && v instanceof Map && col.node) {
        const childPlan = this.plan(col.node, col.clean, NO_KEYS, '');
        const nested = this.emitRow(v, col.node, col.clean, childPlan, link);
        let nestedSlots = col.nested;
        if (nestedSlots === undefined || nestedSlots.plan !== childPlan) {
          nestedSlots = col.nested = { plan: childPlan, slots: Int32Array.from(childPlan.names, (name) => plan.slots.get(name) ?? -1) };
        }
        const slots = nestedSlots.slots;
        for (let j = 0; j < slots.length; j++) {
          const slot = slots[j]!;
          if (slot < 0) throw assignError(nested[j]!, childPlan.names[j]!);
          values[slot] = nested[j]!;
        }
      } else if (v === null || typeof v !== 'object' || !(v instanceof Map || Array.isArray(v))) {
        values[slotOf(plan, col, row, true, v)] = v;
      } else {
        const json = pjsonOrFalse(v, 'p17');
        values[slotOf(plan, col, row, false, json)] = json;
      }
    }
    return values;
  }
}

const NO_KEYS: readonly string[] = [];

/** Some of `keys` is not a parent column of `row` yet (§4.5). */
function unregistered(row: SNode, keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    if (row.props.get(keys[i]!)?.type !== 'parent' && !notAParentColumn(row, keys[i]!)) return true;
  }
  return false;
}

/** Records decoded one at a time (src/spool/spool.ts `streams()`): `count` calls of `next()`. */
export interface RecordStream {
  readonly count: number;
  next(): Value;
  /**
   * The md5 part of the link value of the record `next()` returned last, when it was computed
   * before spooling (`linkDigest`); undefined otherwise.
   */
  digest?(): string | undefined;
}

/**
 * The md5 part of the link value of a record of a batch without parent columns (§4.6: the hash of
 * the wrapped item, nothing merged into it, no outer link): computable before the output phase.
 */
export function linkDigest(item: Value): string {
  return md5OfSerialized(wrapItem(item));
}

/**
 * The cell slot of a column: `name(P+c)` (or `name(P)` when `fallback` and the child does not
 * exist), looked up live — a child table created during this row may have renamed a node.
 */
function slotOf(plan: Plan, col: Column, row: SNode | undefined, fallback: boolean, value: Value): number {
  const name = col.node ? (col.node.headerNames ?? '') : fallback ? (row?.headerNames ?? '') : '';
  if (name === col.name && col.slot >= 0) return col.slot;
  const slot = plan.slots.get(name);
  if (slot !== undefined) return slot;
  // Renamed during this row (an empty or "0" name renamed `_u0` when a child table registered its
  // parent column, 04 §4.4 quirk): the reference fails here (exit 2); the cell stays where the
  // row's header put it (issue 22).
  if (col.slot >= 0) return col.slot;
  throw assignError(value, name);
}

function emptyPlan(keys: readonly string[]): Plan {
  return {
    version: currentStructureVersion(),
    header: [],
    slots: new Map(),
    names: [],
    blank: [],
    cols: keys.map((k) => ({ c: k, t: 'string', node: undefined, clean: '', name: '', slot: -1 })),
  };
}

/**
 * What to do about a type error (the reference's message comes first, unchanged; issue 22): the
 * path is in the message; a member kept as JSON text or a mapping takes any shape.
 */
function typeErrorHint(e: StructureError): string {
  const fix =
    'keep that member as JSON text with the job\'s "responseFilter", or map this data type with "mappings" ' +
    '(a column with "forceType": true holds any value as JSON).';
  if (e.bracketMember) {
    return (
      '. A member named "[]" in the data is read as the list-item marker (as the reference does), so its values clash ' +
      'with the items of the list at that path. "compatLevel": 1 (the legacy parser) reads it as an ordinary member; or ' +
      fix
    );
  }
  return '. The values at this path have different types in different records: ' + fix;
}

/** Analysis of one batch with the error prefix of §4.3 (and what to do about it). */
export function analyzeCurrent(structure: Structure, records: readonly Value[], dataType: string, warn: (msg: string) => void): void {
  try {
    structure.analyzeBatch(records, dataType, warn);
  } catch (e) {
    if (e instanceof StructureError) throw new UserError(PARSE_ERROR_PREFIX + e.message + typeErrorHint(e), { cause: e });
    throw e;
  }
}
