/**
 * The persistent structure tree of the automatic parser, current mode (spec 04 §4.1–§4.5, §8).
 *
 * A node is an insertion-ordered map of child entries (`[]` = list items, `_<key>` = property)
 * and attributes (`nodeType`, `headerNames`, `type`). The ordered `entries` map is the source of
 * truth (it defines column order and the state bytes); `props`, `items` and the attribute fields
 * are mirrors for fast access.
 */
import { PhpArray, type Value, isMap, isList } from '../../php/value.ts';
import { phpString } from '../../php/stringConversion.ts';
import { UserError } from '../../errors/UserError.ts';
import { StructureError } from '../../errors/StructureError.ts';
import { safe } from './names.ts';
import { decodedBracketKey } from '../../php/jsonDecode.ts';

/** Bumped on every change of any structure: plans cached against it stay valid while it holds. */
let structureVersion = 0;

export function currentStructureVersion(): number {
  return structureVersion;
}

const ATTRIBUTES = new Set(['nodeType', 'headerNames', 'type']);
const NODE_TYPES = new Set(['null', 'scalar', 'object', 'array']);

export class SNode {
  /** Children (`SNode`) and attributes (`string`) in insertion order. */
  readonly entries = new Map<string, SNode | string>();
  /** Raw property name → child node (mirror of the `_<name>` entries). */
  readonly props = new Map<string, SNode>();
  /** The `[]` child. */
  items: SNode | undefined;
  nodeType: string | undefined;
  headerNames: string | undefined;
  type: string | undefined;

  /** Sets a child under its encoded key (an existing key keeps its position). */
  setChild(encoded: string, node: SNode): void {
    this.entries.set(encoded, node);
    if (encoded === '[]') this.items = node;
    else this.props.set(encoded.slice(1), node);
    structureVersion++;
  }

  setAttr(name: 'nodeType' | 'headerNames' | 'type', value: string): void {
    this.entries.set(name, value);
    this[name] = value;
    structureVersion++;
  }

  /** The child for an encoded key, created (appended) when missing. */
  child(encoded: string): SNode {
    const existing = encoded === '[]' ? this.items : this.props.get(encoded.slice(1));
    if (existing) return existing;
    const node = new SNode();
    this.setChild(encoded, node);
    return node;
  }

  /** Copies all entries of `other` (children shared, not cloned). */
  copyEntriesFrom(other: SNode): void {
    for (const [k, v] of other.entries) {
      if (typeof v === 'string') this.setAttr(k as 'nodeType', v);
      else this.setChild(k, v);
    }
  }
}

/**
 * A parent key the reference never registers as a column of `row`: `nodeType` on a row of scalar
 * records (its value then lands in the `data` cell, the row's own header name — issue 33). On an
 * object row the reference's result is undetermined; there it stays an ordinary column.
 */
export function notAParentColumn(row: SNode, key: string): boolean {
  return key === 'nodeType' && row.nodeType === 'scalar';
}

/** PHP `empty()` of a header name: absent, "" or "0". */
function emptyName(n: string | undefined): boolean {
  return n === undefined || n === '' || n === '0';
}

/** A path for error messages: raw names, display form joined with `.`. */
export class PathRef {
  readonly parent: PathRef | null;
  readonly seg: string;
  constructor(parent: PathRef | null, seg: string) {
    this.parent = parent;
    this.seg = seg;
  }
  display(): string {
    const parts: string[] = [];
    for (let p: PathRef | null = this; p; p = p.parent) parts.push(p.seg);
    return parts.reverse().join('.');
  }
}

export class Structure {
  /** Root: `_<dataType>` → data-type node. */
  readonly root = new SNode();
  /** Global parent-column alias map (persisted as `parent_aliases`). */
  readonly aliases = new Map<string, string>();
  /** Unique-name registry: namespace → names. Not persisted. */
  private readonly registry = new Map<string, Set<string>>();
  /** Some node may lack a name (or carry an empty/"0" one): `nameAll` has work to do. */
  private naming = true;

  // -------------------------------------------------------------------------------------------
  // setType / merge (§4.1, §4.3)

  /** Sets the type of `node` (child `encoded` of `parent`); returns the node now at that place. */
  setType(parent: SNode, encoded: string, node: SNode, t: string, path: PathRef): SNode {
    const old = node.nodeType;
    if (old === undefined || old === '') {
      node.setAttr('nodeType', t);
      return node;
    }
    if (old === t) return node;
    return this.merge(parent, encoded, node, old, t, path);
  }

  private merge(parent: SNode, encoded: string, node: SNode, old: string, t: string, path: PathRef): SNode {
    if (old === 'array' || t === 'array') {
      const inner = node.items;
      if (!inner || inner.nodeType === undefined || inner.nodeType === '') {
        throw new StructureError('Array contents are unknown');
      }
      const other = old === 'array' ? t : old;
      if (inner.nodeType !== other && inner.nodeType !== 'null' && other !== 'null') {
        throw new StructureError(`Data array in '${path.display()}' contains incompatible types '${inner.nodeType}' and '${other}'`);
      }
      const items = new SNode();
      items.copyEntriesFrom(inner);
      for (const [k, v] of node.entries) {
        if (k !== '[]' && typeof v !== 'string') items.setChild(k, v);
      }
      items.setAttr('nodeType', t !== 'array' ? t : old);
      const replacement = new SNode();
      replacement.setChild('[]', items);
      replacement.setAttr('nodeType', 'array');
      if (!emptyName(node.headerNames)) {
        items.setAttr('headerNames', 'data');
        replacement.setAttr('headerNames', node.headerNames!);
      }
      parent.setChild(encoded, replacement);
      this.naming = true;
      return replacement;
    }
    if (t === 'null') return node;
    if (old === 'null') {
      node.setAttr('nodeType', t);
      return node;
    }
    throw new StructureError(`Unhandled nodeType change from "${old}" to "${t}" in "${path.display()}"`);
  }

  // -------------------------------------------------------------------------------------------
  // Analysis (§4.2)

  /**
   * Analyses one batch: `analyzeList(records, [D])`, `setType([D], "array")`, `nameAll()`.
   * `warn` receives the nested-array warnings.
   */
  analyzeBatch(records: readonly Value[], dataType: string, warn: (msg: string) => void): void {
    if (this.brackets === undefined && decodedBracketKey() && hasBracketKey(records)) {
      // From the first member named `[]` on, the reference's structure is followed beside ours.
      this.brackets = Structure.fromSnapshot(this.snapshot());
      this.brackets.referenceBrackets = true;
    }
    // Its type errors are the reference's (exit 1, with its message); its names are not used.
    if (this.brackets !== undefined) {
      try {
        this.brackets.analyzeTypes(records, dataType);
      } catch (e) {
        if (e instanceof StructureError) throw new StructureError(e.message, true);
        throw e;
      }
    }
    this.analyzeTypes(records, dataType, warn);
    this.nameAll();
  }

  /**
   * The structure as the reference's parser builds it, where a member named `[]` is stored under
   * the list-item key `[]` (and a list in it counts as a list nested in a list): its analysis
   * raises the reference's errors for such data (issue 22). Ours stores the member as `_[]`,
   * an ordinary column; where the reference then fails without a user error (it cannot save
   * that structure: "Array [] is not an array."), we write the tables (docs/migration.md).
   */
  private brackets: Structure | undefined;
  private referenceBrackets = false;

  private analyzeTypes(records: readonly Value[], dataType: string, warn: (msg: string) => void = () => {}): void {
    this.warn = warn;
    const before = structureVersion;
    const enc = '_' + dataType;
    const path = new PathRef(null, dataType);
    const dt = this.root.child(enc);
    this.analyzeList(records, dt, path);
    this.setType(this.root, enc, dt, 'array', path);
    // Unchanged structure: every node is named already, nameAll() would do nothing.
    if (structureVersion !== before) this.naming = true;
  }

  private warn: (msg: string) => void = () => {};

  private analyzeList(list: readonly Value[], node: SNode, path: PathRef): void {
    const itemsPath = new PathRef(path, '[]');
    let items = node.child('[]');
    if (list.length === 0) {
      this.setType(node, '[]', items, 'null', itemsPath);
      return;
    }
    for (let i = 0; i < list.length; i++) {
      items = this.analyzeValue(list[i]!, node, '[]', items, itemsPath);
    }
  }

  /** Analyses `v` at `node` (child `encoded` of `parent`); returns the node now at that place. */
  private analyzeValue(v: Value, parent: SNode, encoded: string, node: SNode, path: PathRef): SNode {
    let t: string;
    if (v === null) {
      t = 'null';
    } else if (typeof v !== 'object') {
      t = 'scalar';
    } else if (Array.isArray(v)) {
      // A list in a member named `[]` too: the reference's path ends in `[]` there (issue 22).
      if (encoded === '[]' || encoded === '_[]') {
        this.warn(`Converting nested array '${path.display()}' to JSON string.`);
        t = 'scalar';
      } else {
        t = 'array';
        this.analyzeList(v, node, path);
      }
    } else if (v instanceof Map) {
      t = 'object';
      // keys() + get(): iterating entries allocates a [key, value] pair per property.
      for (const k of v.keys()) {
        const child = v.get(k)!;
        if (this.referenceBrackets && k === '[]') {
          this.analyzeValue(child, node, '[]', node.child('[]'), new PathRef(path, '[]'));
          continue;
        }
        let c = node.props.get(k);
        if (c === undefined) {
          c = new SNode();
          node.setChild('_' + k, c);
        }
        // Fast path: a known scalar property.
        if (c.nodeType === 'scalar' && child !== null && (typeof child !== 'object' || !(child instanceof Map || Array.isArray(child))))
          continue;
        this.analyzeValue(child, node, '_' + k, c, new PathRef(path, k));
      }
    } else {
      t = 'scalar'; // PhpFloat
    }
    if (node.nodeType === t) return node;
    return this.setType(parent, encoded, node, t, path);
  }

  // -------------------------------------------------------------------------------------------
  // Naming (§4.4)

  /** Runs `nameAll()` when some node may be unnamed (otherwise it would change nothing). */
  nameAll(): void {
    if (!this.naming) return;
    this.naming = false;
    for (const [enc, dt] of this.root.entries) {
      if (typeof dt === 'string') continue;
      if (dt.items) this.name(dt.items, '[]', enc);
    }
  }

  private name(node: SNode, label: string, ns: string): void {
    if (emptyName(node.headerNames)) {
      node.setAttr('headerNames', label === '[]' ? 'data' : this.unique(ns, safe(label)));
      if (emptyName(node.headerNames)) this.naming = true; // renamed again next time (quirk)
    }
    if (node.nodeType === 'array') {
      ns = ns + '.' + label;
      label = '';
    }
    for (const [enc, child] of node.entries) {
      if (typeof child === 'string') continue;
      const k = enc === '[]' ? '[]' : enc.slice(1);
      this.name(child, label === '' ? k : label + '.' + k, ns);
    }
  }

  private unique(ns: string, h: string): string {
    let set = this.registry.get(ns);
    if (!set) {
      set = new Set();
      this.registry.set(ns, set);
    }
    if (!set.has(h)) {
      set.add(h);
      return h;
    }
    for (let i = 0; ; i++) {
      const n = h + '_u' + i;
      if (!set.has(n)) {
        set.add(n);
        return n;
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Parent columns (§4.5)

  /**
   * Registers the parent columns `pc` (ordered, aliased) in the row node. A key that clashes with
   * a data property is renamed (`k_u0`…), recorded in the alias map and moved to the end of `pc`.
   */
  registerParents(row: SNode, pc: [string, Value][]): void {
    const keys = pc.map((e) => e[0]);
    for (let k of keys) {
      if (notAParentColumn(row, k)) continue;
      // Properties are stored as `_<name>`, so `nodeType`, `headerNames` or `type` are ordinary
      // columns (the reference writes them, issue 22); so is `[]` (the reference fails on it).
      const existing = row.props.get(k);
      if (existing !== undefined && existing.type === 'parent') continue;
      if (existing !== undefined) {
        let i = 0;
        while (row.props.has(k + '_u' + i)) i++;
        const n = k + '_u' + i;
        this.aliases.set(k, n);
        const idx = pc.findIndex((e) => e[0] === k);
        if (idx >= 0) {
          const [entry] = pc.splice(idx, 1);
          pc.push([n, entry![1]]);
        }
        k = n;
      }
      const node = new SNode();
      node.setAttr('nodeType', 'scalar');
      node.setAttr('type', 'parent');
      row.setChild('_' + k, node);
      this.naming = true;
      this.nameAll();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Snapshot: an exact copy for another thread (the output worker, src/outputWorker/)

  /** Everything the output phase reads, as plain data (structured-cloneable). */
  snapshot(): StructureSnapshot {
    return {
      root: nodeSnapshot(this.root),
      aliases: [...this.aliases],
      registry: [...this.registry].map(([ns, names]) => [ns, [...names]]),
      naming: this.naming,
    };
  }

  /** The structure a snapshot was taken of: same entries in the same order, same registry. */
  static fromSnapshot(s: StructureSnapshot): Structure {
    const structure = new Structure();
    restoreNode(structure.root, s.root);
    for (const [k, v] of s.aliases) structure.aliases.set(k, v);
    for (const [ns, names] of s.registry) structure.registry.set(ns, new Set(names));
    structure.naming = s.naming;
    return structure;
  }

  // -------------------------------------------------------------------------------------------
  // State (§8)

  toState(): PhpArray {
    const aliases = new PhpArray();
    for (const [k, v] of this.aliases) aliases.set(k, v);
    return new PhpArray([
      ['data', nodeToState(this.root)],
      ['parent_aliases', aliases],
    ]);
  }

  /** Loads `json_parser.struct` (current shape); missing parts are empty. */
  load(struct: Value | undefined): void {
    if (!isMap(struct)) return;
    const data = struct.get('data');
    if (isMap(data)) {
      for (const [k, v] of data) {
        if (!k.startsWith('_')) throw invalidState(`unexpected key '${k}' in 'data'`);
        this.root.setChild(k, loadNode(v, k.slice(1)));
      }
    } else if (data !== undefined && data !== null && !(isList(data) && data.length === 0)) {
      throw invalidState("'data' must be an object");
    }
    const aliases = struct.get('parent_aliases');
    if (isMap(aliases)) {
      for (const [k, v] of aliases) this.aliases.set(k, phpString(v));
    } else if (isList(aliases)) {
      // A map whose keys are 0, 1 … (userData keys renumbered by the reference) is saved as a list.
      for (const [i, v] of aliases.entries()) this.aliases.set(String(i), phpString(v));
    }
    this.naming = true;
  }
}

/** Some record has, at any depth, an object member named `[]`. */
function hasBracketKey(values: readonly Value[]): boolean {
  for (const v of values) {
    if (v instanceof Map) {
      if (v.has('[]')) return true;
      if (hasBracketKey([...v.values()])) return true;
    } else if (Array.isArray(v) && hasBracketKey(v)) {
      return true;
    }
  }
  return false;
}

/** A node's entries in order: attribute values as strings, children as their own entries. */
export type NodeSnapshot = [string, string | NodeSnapshot][];

export interface StructureSnapshot {
  root: NodeSnapshot;
  aliases: [string, string][];
  registry: [string, string[]][];
  naming: boolean;
}

function nodeSnapshot(node: SNode): NodeSnapshot {
  const out: NodeSnapshot = [];
  for (const [k, v] of node.entries) out.push([k, typeof v === 'string' ? v : nodeSnapshot(v)]);
  return out;
}

function restoreNode(node: SNode, entries: NodeSnapshot): void {
  for (const [k, v] of entries) {
    if (typeof v === 'string') {
      node.setAttr(k as 'nodeType', v);
    } else {
      const child = new SNode();
      restoreNode(child, v);
      node.setChild(k, child);
    }
  }
}

function nodeToState(node: SNode): PhpArray {
  const out = new PhpArray();
  for (const [k, v] of node.entries) out.set(k, typeof v === 'string' ? v : nodeToState(v));
  return out;
}

function invalidState(detail: string): UserError {
  return new UserError(`Invalid JSON parser structure in the state: ${detail}.`);
}

function loadNode(v: Value, display: string): SNode {
  const node = new SNode();
  if (!isMap(v)) throw invalidState(`node '${display}' is not an object`);
  for (const [k, item] of v) {
    if (k === '[]' || k.startsWith('_')) {
      node.setChild(k, loadNode(item, display + '.' + (k === '[]' ? '[]' : k.slice(1))));
    } else if (ATTRIBUTES.has(k)) {
      if (isMap(item) || isList(item)) throw invalidState(`attribute '${k}' of node '${display}' is not a string`);
      node.setAttr(k as 'nodeType', phpString(item));
    } else {
      throw invalidState(`unknown attribute '${k}' of node '${display}'`);
    }
  }
  if (node.nodeType === undefined || !NODE_TYPES.has(node.nodeType)) {
    throw invalidState(`node '${display}' has no valid nodeType`);
  }
  if (node.nodeType === 'array' && !node.items) throw invalidState(`array node '${display}' has no '[]' item`);
  return node;
}
