import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJson } from '../../../src/php/jsonDecode.ts';
import type { Value } from '../../../src/php/value.ts';
import { pjson } from '../../../src/php/jsonEncode.ts';
import { analyzeCurrent } from '../../../src/mapping/auto/currentParser.ts';
import { Structure } from '../../../src/mapping/auto/structure.ts';

test('a structure snapshot restores the same tree, aliases and name registry', () => {
  const s = new Structure();
  const warn = (): void => {};
  analyzeCurrent(s, decodeJson('[{"a":1,"a_b":2,"x":{"b":3},"l":[{"q":1}]}]', 'response') as Value[], 'users', warn);
  s.registerParents(s.root.props.get('users')!.items!, [['a', 1]]);
  const copy = Structure.fromSnapshot(structuredClone(s.snapshot()));
  assert.equal(pjson(copy.toState(), 'shortest'), pjson(s.toState(), 'shortest'));
  // The registry came along: the next colliding name gets the same suffix in both.
  for (const t of [s, copy]) analyzeCurrent(t, decodeJson('[{"x_b":4}]', 'response') as Value[], 'users', warn);
  assert.equal(pjson(copy.toState(), 'shortest'), pjson(s.toState(), 'shortest'));
  assert.match(pjson(s.toState(), 'shortest'), /"headerNames":"x_b_u0"/);
});
