/**
 * Automatic parser, legacy mode (spec 04 §5): flat struct "type path → {column → type}",
 * legacy names, parent columns overwrite record properties.
 */
import { createHash } from 'node:crypto';
import { PhpArray, PhpFloat, type Value, type ValueMap, isMap, isList } from '../../php/value.ts';
import { pjsonOrFalse } from '../../php/jsonEncode.ts';
import { phpString } from '../../php/stringConversion.ts';
import { writeValueRow, type TableSink, type TableWriter } from '../../output/tableSink.ts';
import { ApplicationError } from '../../errors/ApplicationError.ts';
import { UserError } from '../../errors/UserError.ts';
import { legacySafe, phpLooseStringEquals } from './names.ts';
import { LinkRef, PARSE_ERROR_PREFIX, assignError, checkParentValues, mergeParents, wrapItem } from './currentParser.ts';
import { LegacyParseError } from '../../errors/LegacyParseError.ts';

type Kind = 'scalar' | 'object' | 'array' | 'NULL';

function kind(v: Value): Kind {
  if (v === null) return 'NULL';
  if (typeof v !== 'object' || v instanceof PhpFloat) return 'scalar';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** PHP `$v == null` for a batch element: null, false, 0, 0.0, "", []. */
export function looselyNull(v: Value): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return true;
  if (v instanceof PhpFloat) return v.value === 0;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof PhpArray) return v.size === 0;
  return false;
}

/** `{}` → true; otherwise only the first property decides (§5.2 emptyObject). */
function emptyObject(o: ValueMap): boolean {
  if (o.size === 0) return true;
  const first = o.values().next().value as Value;
  if (!isMap(first)) return false;
  return emptyObject(first);
}

function itemOf(t: string): string {
  return t.replaceAll('arrayOf', '');
}

const KNOWN_TYPE = /^(?:arrayOf)?(?:scalar|object|NULL)$/;

function md5(s: string): string {
  return createHash('md5').update(s, 'utf8').digest('hex');
}

interface LegacyColumn {
  c: string;
  t: string;
  /** legacySafe(c) */
  name: string;
  sub: string;
}

interface LegacyPlan {
  header: string[];
  slots: Map<string, number>;
  names: string[];
  cols: LegacyColumn[];
}

export class LegacyStructure {
  readonly struct = new Map<string, Map<string, string>>();
  private warn: (msg: string) => void = () => {};

  /** Loads and validates a legacy `json_parser.struct`. */
  load(value: Value | undefined): void {
    if (value === undefined || value === null) return;
    if (isList(value) && value.length === 0) return;
    if (!isMap(value)) throw new UserError('Error loading data structure definition');
    for (const [type, defs] of value) {
      const cols = new Map<string, string>();
      if (isMap(defs)) {
        for (const [c, t] of defs) {
          if (typeof t !== 'string' || !KNOWN_TYPE.test(t)) {
            throw new UserError(
              `Error loading data structure definition: unknown data type '${isMap(t) || isList(t) ? pjsonOrFalse(t, 'p17') || '' : phpString(t)}' of '${type}.${c}'`,
            );
          }
          cols.set(c, t);
        }
      } else if (!(isList(defs) && defs.length === 0)) {
        throw new UserError(`Error loading data structure definition of '${type}'`);
      }
      this.struct.set(type, cols);
    }
  }

  toState(): PhpArray {
    const out = new PhpArray();
    for (const [type, cols] of this.struct) out.set(type, new PhpArray(cols));
    return out;
  }

  hasDefinitions(type: string): boolean {
    const d = this.struct.get(type);
    return d !== undefined && d.size > 0;
  }

  analyzeBatch(records: readonly Value[], dataType: string, warn: (msg: string) => void): void {
    this.warn = warn;
    try {
      this.analyzeList(records, dataType);
    } catch (e) {
      if (e instanceof LegacyParseError) throw new UserError(PARSE_ERROR_PREFIX + e.message + LEGACY_TYPE_HINT, { cause: e });
      throw e;
    }
  }

  private itemType(type: string): string | undefined {
    const dot = type.lastIndexOf('.');
    let t: string | undefined;
    if (dot <= 0) t = this.struct.get(type)?.get('data');
    else t = this.struct.get(type.slice(0, dot))?.get(type.slice(dot + 1));
    return t === undefined ? undefined : itemOf(t);
  }

  private analyzeList(list: readonly Value[], type: string): string | undefined {
    if (list.length === 0) return undefined;
    let prev = this.itemType(type);
    for (const row of list) {
      const t = this.analyzeRow(row, type);
      if (prev !== undefined && t !== prev && t !== 'NULL' && prev !== 'NULL') {
        throw new LegacyParseError(`Data array in '${type}' contains incompatible data types '${prev}' and '${t}'!`);
      }
      prev = t;
    }
    return prev;
  }

  private analyzeRow(row: Value, type: string): string {
    const cols = new Map<string, string>();
    let rt: string = kind(row);
    if (rt === 'scalar') {
      cols.set('data', 'scalar');
    } else if (rt === 'object') {
      for (const [k, v] of row as ValueMap) {
        const kv = kind(v);
        let ft: string;
        if (kv === 'object') {
          if (emptyObject(v as ValueMap)) continue;
          this.analyzeRow(v, type + '.' + k);
          ft = 'object';
        } else if (kv === 'array') {
          const r = this.analyzeList(v as Value[], type + '.' + k);
          ft = r === undefined ? 'NULL' : 'arrayOf' + r;
        } else {
          ft = kv;
        }
        cols.set(k, ft);
      }
    } else if (rt === 'array') {
      this.warn(`Converting nested array '${type}' to JSON string.`);
      rt = 'scalar';
      cols.set('data', 'scalar');
    }
    this.add(type, cols);
    return rt;
  }

  private add(type: string, cols: Map<string, string>): void {
    const cur = this.struct.get(type);
    if (cur === undefined || cur.size === 0) {
      this.struct.set(type, cols);
      return;
    }
    for (const [k, t] of cols) {
      const old = cur.get(k);
      if (old === undefined || old !== t) cur.set(k, update(old, t, type + '.' + k));
    }
  }

  // -------------------------------------------------------------------------------------------
  // Names (§5.3)

  /** `header(t, parent)` before validation of the top level. */
  private rawHeader(type: string, parentKeys: readonly string[]): string[] {
    const defs = this.struct.get(type);
    if (defs === undefined) throw new ApplicationError(`Trying to retrieve unknown definitions for '${type}'`);
    const h: string[] = [];
    for (const [c, t] of defs) {
      if (t === 'object') {
        const prefix = legacySafe(c) + '_';
        for (const v of this.header(type + '.' + c, [])) h.push(prefix + v);
      } else {
        h.push(c);
      }
    }
    for (const k of parentKeys) h.push(k);
    return h;
  }

  header(type: string, parentKeys: readonly string[]): string[] {
    return validate(this.rawHeader(type, parentKeys));
  }
}

function update(old: string | undefined, t: string, where: string): string {
  if (old === undefined || old === 'NULL') return t;
  if (t === 'NULL' || t === old) return old;
  if (itemOf(old) === t || t === 'arrayOf' + old || itemOf(old) === 'NULL' || itemOf(t) === 'NULL') {
    if (old.startsWith('arrayOf')) {
      return itemOf(old) === 'NULL' ? (t.startsWith('arrayOf') ? t : 'arrayOf' + t) : old;
    }
    return 'arrayOf' + old;
  }
  throw new LegacyParseError(`Unhandled type change from "${old}" to "${t}" in '${where}'`);
}

/** §5.3 validate(): legacySafe each entry; a (loosely) repeated name becomes md5(entry). */
function validate(h: readonly string[]): string[] {
  const out: string[] = [];
  for (const x of h) {
    const y = legacySafe(x);
    out.push(out.some((o) => phpLooseStringEquals(y, o)) ? md5(x) : y);
  }
  return out;
}

function isEmptyCellValue(v: Value | undefined): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

export class LegacyOutput {
  private readonly structure: LegacyStructure;
  private readonly sink: TableSink;
  private readonly tables = new Map<string, TableWriter>();
  private readonly tableNames = new Map<string, string>();
  private readonly plans = new Map<string, LegacyPlan>();

  constructor(structure: LegacyStructure, sink: TableSink) {
    this.structure = structure;
    this.sink = sink;
  }

  emitBatch(records: readonly Value[], dataType: string, parentColumns: Map<string, Value>): void {
    this.emitList(records, dataType, [...parentColumns]);
  }

  private tableName(type: string): string {
    let t = this.tableNames.get(type);
    if (t === undefined) {
      t = legacySafe(type);
      this.tableNames.set(type, t);
    }
    return t;
  }

  private plan(type: string, keys: readonly string[]): LegacyPlan {
    const sig = type + '\u0001' + keys.join('\u0000');
    const cached = this.plans.get(sig);
    if (cached) return cached;
    const header = this.structure.header(type, keys);
    const slots = new Map<string, number>();
    const names: string[] = [];
    for (const h of header) {
      if (!slots.has(h)) {
        slots.set(h, names.length);
        names.push(h);
      }
    }
    // array_merge(struct[type], parent columns as "scalar")
    const defs = this.structure.struct.get(type) ?? new Map<string, string>();
    const cols: LegacyColumn[] = [];
    for (const [c, t] of defs) cols.push({ c, t, name: legacySafe(c), sub: type + '.' + c });
    for (const k of keys) {
      const existing = cols.find((col) => col.c === k);
      if (existing) existing.t = 'scalar';
      else cols.push({ c: k, t: 'scalar', name: legacySafe(k), sub: type + '.' + k });
    }
    const plan: LegacyPlan = { header, slots, names, cols };
    this.plans.set(sig, plan);
    return plan;
  }

  private emitList(items: readonly Value[], type: string, pc: [string, Value][]): void {
    checkParentValues(pc);
    const tableName = this.tableName(type);
    const keys = pc.map((e) => e[0]);
    let writer = this.tables.get(tableName);
    if (writer === undefined) {
      writer = this.sink.open(tableName, this.plan(type, keys).header);
      this.tables.set(tableName, writer);
    }
    if (items.length === 0) return;
    const plan = this.plan(type, keys);
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      let r = wrapItem(item);
      if (pc.length > 0) {
        if (r === item) r = mergeParents(r, pc);
        else for (const [k, v] of pc) r.set(k, v);
      }
      const values = this.emitRow(r, type, plan, null);
      writeValueRow(writer, values);
    }
  }

  private emitRow(r: ValueMap, type: string, plan: LegacyPlan, outer: LinkRef | null): Value[] {
    const values: Value[] = new Array<Value>(plan.names.length).fill(null);
    const slots = plan.slots;
    const set = (name: string, v: Value): void => {
      const slot = slots.get(name);
      if (slot === undefined) throw assignError(v, name);
      values[slot] = v;
    };
    const link = new LinkRef(type, r, outer);
    for (const col of plan.cols) {
      const v = r.get(col.c);
      if (isEmptyCellValue(v)) {
        if (col.t !== 'object') set(col.name, null);
        continue;
      }
      const value = v!;
      if (col.t === 'object' && isMap(value)) {
        const childPlan = this.plan(col.sub, []);
        const nested = this.emitRow(value, col.sub, childPlan, link);
        for (let j = 0; j < childPlan.names.length; j++) {
          set(legacySafe(col.name + '_' + childPlan.names[j]!), nested[j]!);
        }
      } else if (col.t === 'object') {
        // A list or scalar where the struct has an object (the analysis skipped this record's
        // object: its first member was an empty object, §5.2). The reference fails (a type
        // error, exit 2); its JSON text goes into the first column of the object (issue 22).
        const first = this.plan(col.sub, []).names[0];
        if (first === undefined) throw new UserError(unplacedValue(col.sub));
        set(legacySafe(col.name + '_' + first), pjsonOrFalse(value, 'p17'));
      } else if (col.t.startsWith('arrayOf')) {
        const list = Array.isArray(value) ? value : [value];
        const linkValue = link.get();
        this.emitList(list, col.sub, [['JSON_parentId', linkValue]]);
        set(col.name, linkValue);
      } else if (col.t === 'NULL') {
        // Reference edge: the whole record as JSON into the raw column name; where that is not
        // a header name the reference fails (exit 2), and the sanitised name takes it (issue 22).
        set(slots.has(col.c) ? col.c : col.name, pjsonOrFalse(r, 'p17'));
      } else if (value !== null && typeof value === 'object' && !(value instanceof PhpFloat)) {
        set(col.name, pjsonOrFalse(value, 'p17'));
      } else {
        set(col.name, value);
      }
    }
    return values;
  }
}

function unplacedValue(type: string): string {
  return (
    `Error parsing response JSON: a value at '${type}' is not an object, although the legacy parser ("compatLevel": 1) ` +
    'knows it as an object without columns. Remove "compatLevel" to use the current parser, or map this data type with "mappings".'
  );
}

/** What to do about a type error of the legacy parser (its message comes first, unchanged; issue 22). */
const LEGACY_TYPE_HINT =
  " The values at this path have different types in different records: keep that member as JSON text with the job's " +
  '"responseFilter", or map this data type with "mappings" (a column with "forceType": true holds any value as JSON).';
