import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { acronym, legacySafe, phpLooseStringEquals, safe, strWordCount } from '../../../src/mapping/auto/names.ts';

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

test('safe(): spec examples', () => {
  assert.equal(safe('[].user-info.id'), 'user-info_id');
  assert.equal(safe('[].primary.address.street'), 'primary_address_street');
  assert.equal(safe('user/{user-id}'), 'user_user-id');
  assert.equal(safe('users.address.city'), 'users_address_city');
  assert.equal(safe('orders.items'), 'orders_items');
  assert.equal(
    safe('[].data.modules.#DistributionGroups.outputs.groupCharacteristics.persistent'),
    'DistributionGroups_outputs_groupCharacteristics_persistent',
  );
  assert.equal(safe('users.' + 'a'.repeat(63) + '_really'), 'u_really');
  assert.equal(safe('žk'), 'k');
  assert.equal(safe('a ž b'), 'a_b');
  assert.equal(safe('__a__'), 'a');
  assert.equal(safe(''), '');
  assert.equal(safe('[].0'), '0');
});

test('safe(): >64 shortening — md5 for one word, acronym for several, tail after the cut', () => {
  const one = 'a'.repeat(70);
  assert.equal(safe(one), md5(one));
  const dashed = 'abc-def-' + 'g'.repeat(60); // dashes are word characters: one word
  assert.equal(safe(dashed), md5(dashed));
  // two words; \w runs split by "-": "abc", "def_ggg…" → acronym "ad"
  assert.equal(safe('abc-def_' + 'g'.repeat(60)), 'ad_' + 'g'.repeat(60));
  // acronym of the whole underscore-joined run is its first char
  assert.equal(safe('x'.repeat(40) + '_' + 'y'.repeat(40)), 'x_' + 'y'.repeat(40));
  // the md5 is taken after step 1 (invalid bytes → "_")
  const odd = 'ž'.repeat(40);
  assert.equal(safe(odd), md5('_'.repeat(80)));
  // exactly 64 bytes: untouched
  assert.equal(safe('b'.repeat(64)), 'b'.repeat(64));
});

test('str_word_count / acronym helpers', () => {
  assert.equal(strWordCount('-abc-'), 1);
  assert.equal(strWordCount('abc_def'), 2);
  assert.equal(strWordCount("'abc"), 1);
  assert.equal(strWordCount('a1b'), 2);
  assert.equal(strWordCount('---'), 1);
  assert.equal(acronym('abc-def_x-9'), 'ad9');
  assert.equal(acronym('__a'), '_');
});

test('legacySafe(): each invalid byte becomes "_", then trim', () => {
  assert.equal(legacySafe('a..b'), 'a__b');
  assert.equal(legacySafe('user/{user-id}'), 'user__user-id');
  assert.equal(legacySafe('users.contacts'), 'users_contacts');
  assert.equal(legacySafe('žk'), 'k');
  assert.equal(legacySafe('.a.'), 'a');
});

test('legacySafe(): >64 shortening on the raw bytes (space first, then "_")', () => {
  // acronym over raw \w runs: "hello", "world", "x…" → "hwx"; no separator after the cut → "hwx"
  assert.equal(legacySafe('hello world ' + 'x'.repeat(60)), 'hwx');
  // a space after the cut offset is preferred over "_"
  const s = 'alpha beta_' + 'c'.repeat(40) + '_d e' + 'f'.repeat(20); // 76 bytes
  // acronym: "alpha", "beta_ccc…_d", "e…" → "abe" → "abe_", rem 60, cut at 16 → first " " at/after 16
  const p = s.indexOf(' ', 16);
  assert.equal(legacySafe(s), ('abe_' + s.slice(p)).replace(/[^A-Za-z0-9-]/g, '_'));
  // single word → md5 of the raw string
  const w = 'q'.repeat(65);
  assert.equal(legacySafe(w), md5(w));
});

test('PHP loose string comparison for validate()', () => {
  assert.ok(phpLooseStringEquals('1', '01'));
  assert.ok(phpLooseStringEquals('1e3', '1000'));
  assert.ok(phpLooseStringEquals('10', '10.0'));
  assert.ok(!phpLooseStringEquals('abc', 'ABC'));
  assert.ok(!phpLooseStringEquals('1a', '1'));
  assert.ok(phpLooseStringEquals('x', 'x'));
});
