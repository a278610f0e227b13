/** The diff config push shows: paths as the configuration names them, secrets never shown. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diffConfiguration, diffValues } from '../../src/platform/configDiff.ts';

describe('diffValues', () => {
  test('added, removed and changed leaves, with list indexes', () => {
    assert.deepEqual(diffValues({ a: { b: 1, c: [1, 2] }, gone: true }, { a: { b: 2, c: [1, 3, 4] }, added: 'x' }), [
      '~ a.b: 1 → 2',
      '~ a.c[1]: 2 → 3',
      '+ a.c[2]: 4',
      '- gone: true',
      '+ added: "x"',
    ]);
  });

  test('a # value is never shown, at any depth, also inside an added object', () => {
    const lines = diffValues(
      { p: { '#k': 'KBC::ProjectSecure::old' } },
      { p: { '#k': 'plain-new' }, q: { deep: { '#x': 'plain-2', '#obj': { inner: 'plain-3' } } } },
    );
    assert.deepEqual(lines, ['~ p.#k: <encrypted> → <secret>', '+ q.deep.#x: <secret>', '+ q.deep.#obj.inner: <secret>']);
    for (const secret of ['old', 'plain-new', 'plain-2', 'plain-3']) assert.ok(!lines.join('\n').includes(secret));
  });
});

describe('diffConfiguration', () => {
  const base = { name: 'n', description: '', isDisabled: false, configuration: { parameters: { a: 1 } } };
  const row = (id: string, a = 1) => ({ id, name: id, description: '', isDisabled: false, configuration: { a } });

  test('rows: new, changed, removed, reordered', () => {
    const remote = { ...base, rows: [row('x'), row('y'), row('z')] };
    const local = { ...base, rows: [row('z'), row('x', 2), row('new')] };
    assert.deepEqual(diffConfiguration(remote, local), [
      '  row x:',
      '    ~ a: 1 → 2',
      '  new row new "new"',
      '    + a: 1',
      '  removed row y "y"',
      '  row order: z, x, new',
    ]);
    assert.deepEqual(diffConfiguration(local, local), []);
  });
});
