/**
 * The import graph of src/: which file imports which, and which folder depends on which.
 *
 * Read from the source text (static `import`/`export … from`, side-effect imports and dynamic
 * `import()` of relative paths). Type-only imports (`import type`, `export type … from`) count
 * too: they are erased before the code runs, but a type is still a dependency on the folder that
 * owns it, and the layers are about ownership, not only about what loads at run time.
 *
 * `node scripts/importGraph.ts` prints each folder's dependencies and any cycle;
 * tests/architecture/layout.test.ts asserts the rules on the same graph.
 */
import fs from 'node:fs';
import path from 'node:path';

const STATIC = /^[ \t]*(?:import|export)[ \t]+(?:type[ \t]+)?[\w$*{},\s]*?\bfrom[ \t]*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT = /^[ \t]*import[ \t]*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface ImportGraph {
  /** Source files, relative to the root, with `/` separators. */
  files: string[];
  /** File → the files it imports, types included (relative imports only). */
  imports: Map<string, Set<string>>;
}

/** The imports of one source text, type-only ones included, as written (specifiers). */
export function importSpecifiers(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(STATIC)) out.push(m[1]!);
  for (const m of source.matchAll(SIDE_EFFECT)) out.push(m[1]!);
  for (const m of source.matchAll(DYNAMIC)) out.push(m[1]!);
  return out;
}

export function readImportGraph(root: string): ImportGraph {
  const files = (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split(path.sep).join('/'))
    .sort();
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of importSpecifiers(fs.readFileSync(path.join(root, file), 'utf8'))) {
      if (spec.startsWith('.')) targets.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
    }
    imports.set(file, targets);
  }
  return { files, imports };
}

/** The folder of a file relative to the root (`.` for the root itself). */
export function folderOf(file: string): string {
  return path.posix.dirname(file);
}

/** Folder → folder → the file-level imports behind that dependency (`a.ts -> b/c.ts`). */
export function folderDependencies(graph: ImportGraph): Map<string, Map<string, string[]>> {
  const deps = new Map<string, Map<string, string[]>>();
  for (const [file, targets] of graph.imports) {
    for (const target of targets) {
      const from = folderOf(file);
      const to = folderOf(target);
      if (from === to) continue;
      const byTarget = deps.get(from) ?? new Map<string, string[]>();
      deps.set(from, byTarget);
      const edges = byTarget.get(to) ?? [];
      byTarget.set(to, edges);
      edges.push(`${file} -> ${target}`);
    }
  }
  return deps;
}

/** Strongly connected components with more than one node (Tarjan): every cycle of the graph. */
export function cycles(nodes: Iterable<string>, next: (node: string) => Iterable<string>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return found;
}

if (import.meta.main) {
  const graph = readImportGraph(process.argv[2] ?? 'src');
  const deps = folderDependencies(graph);
  for (const [from, byTarget] of [...deps].sort()) {
    console.log(
      `${from} -> ${[...byTarget.keys()]
        .sort()
        .map((to) => `${to} (${byTarget.get(to)!.length})`)
        .join(', ')}`,
    );
  }
  const folders = new Set(graph.files.map(folderOf));
  for (const c of cycles(folders, (f) => deps.get(f)?.keys() ?? [])) console.log(`folder cycle: ${c.join(' ⇄ ')}`);
  for (const c of cycles(graph.files, (f) => graph.imports.get(f) ?? [])) console.log(`file cycle: ${c.join(' ⇄ ')}`);
}
