/**
 * The house rules of src/, checked on the source itself: data flows one way, so no folder imports
 * from a folder above it, not even a type (and so there is no cycle between folders), no file
 * cycle, and no hand-written file over 500 lines.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { folderFunctionLengths, functionLengths } from '../../scripts/functionLengths.ts';
import { cycles, folderDependencies, folderOf, readImportGraph, importSpecifiers } from '../../scripts/importGraph.ts';

const SRC = path.join(import.meta.dirname, '..', '..', 'src');

/**
 * The layers of src/, top to bottom: a folder may import from folders of lower layers only. One
 * line per layer; folders on one line are siblings and do not import from each other. The order
 * follows the data: data folder → configuration → jobs → requests → records → tables → files.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['.', 'platform', 'mock-server', 'platform/fake'], // the commands: extractor, platform client, replay mock server, fake platform
  ['runtime', 'platform/errors'], // the process: heap tuning, compile cache, worker dispatch
  ['component'], // data folder, run lifecycle, state: the composition root
  ['actions'], // sync actions of the UI builder (spec 05), dispatched by component/
  ['outputWorker'], // the output phase on a second core, injected into the parser by component/
  ['config'], // the configuration, parsed and validated once
  ['jobs'], // plan of jobs, the page loop, children
  ['pagination', 'auth'], // requests: next page, credentials
  ['http', 'ssh'], // requests on the wire
  ['http/rateLimit'], // request budgets per host: pacing, adaptive concurrency
  ['functions'], // user functions
  ['functions/strtotime'],
  ['mapping'], // records → tables: routing, user mappings, filters
  ['mapping/user', 'mapping/auto'],
  ['output', 'spool'], // tables → staged files; the parser's spool of pages
  ['logging'],
  ['php'], // PHP value semantics
  ['errors', 'spec'], // error classes; the schema nodes every component's spec is written in
];

const rank = new Map(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
const graph = readImportGraph(SRC);
const deps = folderDependencies(graph);

describe('src/ layout', () => {
  it('every folder has its place in the layer table', () => {
    const unplaced = [...new Set(graph.files.map(folderOf))].filter((f) => !rank.has(f));
    assert.deepEqual(unplaced, [], 'add new folders to LAYERS in tests/architecture/layout.test.ts');
  });

  it('no folder imports from a folder of its own or a higher layer', () => {
    const upward: string[] = [];
    for (const [from, byTarget] of deps) {
      for (const [to, edges] of byTarget) {
        if ((rank.get(to) ?? -1) <= (rank.get(from) ?? -1)) upward.push(`${from} -> ${to}: ${edges.join(', ')}`);
      }
    }
    assert.deepEqual(upward, []);
  });

  it('no import cycle between folders or between files', () => {
    const folders = new Set(graph.files.map(folderOf));
    assert.deepEqual(
      cycles(folders, (f) => deps.get(f)?.keys() ?? []),
      [],
    );
    assert.deepEqual(
      cycles(graph.files, (f) => graph.imports.get(f) ?? []),
      [],
    );
  });

  it('no hand-written file over 500 lines', () => {
    const long = graph.files
      .filter((f) => !f.endsWith('.generated.ts'))
      .map((f) => [f, fs.readFileSync(path.join(SRC, f), 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 500);
    assert.deepEqual(long, []);
  });
});

describe('the composition root stays slim', () => {
  it('no function in src/component over 80 lines', () => {
    const long = folderFunctionLengths(path.join(SRC, 'component')).filter((f) => f.lines > 80);
    assert.deepEqual(
      long.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`),
      [],
    );
  });

  it('the length reader measures declarations, methods and arrow functions to their closing brace', () => {
    const source = [
      'export async function run(',
      '  a: number,',
      '): Promise<void> {',
      '  if (a) {',
      '  }',
      '}',
      'class A {',
      '  private method(x: string): void {',
      '    x;',
      '  }',
      '}',
      'const arrow = (x: number) => {',
      '  return x;',
      '};',
      'declare function signature(): void;',
    ].join('\n');
    assert.deepEqual(
      functionLengths(source).map((f) => [f.name, f.line, f.lines]),
      [
        ['run', 1, 6],
        ['method', 8, 3],
        ['arrow', 12, 3],
      ],
    );
  });
});

describe('the import reader', () => {
  it('sees static, re-exported, side-effect, dynamic and type-only imports', () => {
    const source = [
      "import fs from 'node:fs';",
      "import { a, type B } from './a.ts';",
      'import {',
      '  c,',
      '  d as e,',
      "} from '../c.ts';",
      "import type { F } from './f.ts';",
      "export { g } from './g.ts';",
      "export type { H } from './h.ts';",
      "export * from './star.ts';",
      "import './side.ts';",
      "const lazy = await import('./lazy.ts');",
      "// the text `from './comment.ts'` in a comment is not an import",
    ].join('\n');
    assert.deepEqual(
      importSpecifiers(source).sort(),
      ['../c.ts', './a.ts', './f.ts', './g.ts', './h.ts', './lazy.ts', './side.ts', './star.ts', 'node:fs'].sort(),
    );
  });

  it('finds a cycle and names its members', () => {
    const next: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
    assert.deepEqual(
      cycles(Object.keys(next), (n) => next[n] ?? []),
      [['a', 'b', 'c']],
    );
  });
});
