/**
 * The README is the newcomer's first page: at most 300 lines, its two set-up lines work on a
 * fresh clone (scripts that exist), each topic is one link away (every link resolves), and the
 * layout table names the folders src/ really has.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

test('at most 300 lines', () => {
  const lines = README.split('\n').length - (README.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 300, `README.md has ${lines} lines`);
});

test('the two set-up lines: the demo and every test, on npm scripts that exist', () => {
  const setup = README.split('\n').filter((l) => l.startsWith('npm ci && '));
  assert.deepEqual(
    setup.map((l) => l.replace(/\s+#.*$/, '')),
    ['npm ci && npm run demo', 'npm ci && npm test'],
  );
  assert.ok(scripts['demo'] && scripts['test']);
});

test('every link resolves; the Platform and Deployment pages are linked', () => {
  const links = [...README.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
  assert.ok(links.length > 10);
  for (const link of links) {
    assert.ok(fs.existsSync(path.join(ROOT, link)), `README links ${link}, which does not exist`);
  }
  assert.match(README, /\| Platform: .*\| \[docs\/platform\.md\]\(docs\/platform\.md\) \|/);
  assert.match(README, /\| Deployment: .*\| \[docs\/deployment\.md\]\(docs\/deployment\.md\) \|/);
  for (const page of fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
    assert.ok(README.includes(`(docs/${page})`), `README does not link docs/${page}`);
  }
});

test('the layout table names every folder of src/, and only folders that exist', () => {
  const table = README.slice(README.indexOf('## Layout'), README.indexOf('\n## ', README.indexOf('## Layout') + 1));
  const named = new Set([...table.matchAll(/`src\/([\w/-]*?)\/?`/g)].map((m) => m[1]!).filter((f) => f !== ''));
  for (const folder of named) assert.ok(fs.statSync(path.join(ROOT, 'src', folder)).isDirectory(), `src/${folder}`);
  const top = fs.readdirSync(path.join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory());
  for (const entry of top) assert.ok(named.has(entry.name), `the layout table does not name src/${entry.name}/`);
});
