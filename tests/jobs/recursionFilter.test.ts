import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { parseRecursionFilter } from '../../src/jobs/recursionFilter.ts';
import { UserError } from '../../src/errors/UserError.ts';

const rec = (json: string) => decodeJson(json, 'response');
const check = (filter: string, json: string) => parseRecursionFilter(filter)(rec(json));

test('& binds tighter than |', () => {
  assert.equal(check('a==1|b==1&c==1', '{"a":1,"b":0,"c":0}'), true);
  assert.equal(check('a==1|b==1&c==1', '{"a":0,"b":1,"c":0}'), false);
  assert.equal(check('a==1&b==1|c==1', '{"a":0,"b":0,"c":1}'), true);
});

test('operator choice: leftmost two-character operator first, then > or <; cut at every occurrence', () => {
  assert.equal(check('name>a==b', '{"name>a":"b"}'), true);
  assert.equal(check('x==1==2', '{"x":"1"}'), true);
  assert.equal(check('id>20', '{"id":100}'), true);
  assert.equal(check('id>20', '{"id":3}'), false);
  assert.equal(check('type>b', '{"type":"c"}'), true);
  assert.equal(check('type>b', '{"type":"a"}'), false);
  assert.equal(check('n<=1.0', '{"n":"1"}'), true);
  assert.equal(check('n==1.0', '{"n":1}'), false);
});

test('left values: missing/null/false give "", 0 gives "0", true gives "1"', () => {
  assert.equal(check('type==', '{}'), true);
  assert.equal(check('type==', '{"type":null}'), true);
  assert.equal(check('type==', '{"type":false}'), true);
  assert.equal(check('type==', '{"type":0}'), false);
  assert.equal(check('type!=', '{"type":0}'), true);
  assert.equal(check('flag==1', '{"flag":true}'), true);
  assert.equal(check('a.b==2', '{"a":{"b":2}}'), true);
  assert.equal(check('list==Array', '{"list":[1]}'), true);
});

test('like / not like: % is any run except newline, whole match, case-sensitive', () => {
  assert.equal(check('n~~J%n', '{"n":"John"}'), true);
  assert.equal(check('n~~j%', '{"n":"John"}'), false);
  assert.equal(check('n~~J.%', '{"n":"John"}'), false);
  assert.equal(check('n~~%', '{"n":"a\\nb"}'), false);
  assert.equal(check('n!~%oh%', '{"n":"John"}'), false);
});

test('non-object records are wrapped: scalar → {scalar}, array → indexes', () => {
  assert.equal(check('scalar>1', '5'), true);
  assert.equal(check('scalar>1', '0'), false);
  assert.equal(check('1==b', '["a","b"]'), true);
});

test('no operator: user error naming the condition', () => {
  assert.throws(
    () => parseRecursionFilter('a==1&b', 'p'),
    (e: unknown) =>
      e instanceof UserError &&
      e.message ===
        "Error creating a filter from b: Operator couldn't be determined. Please use one of [==, !=, >=, <=, >, <, ~~, !~, >, <]" &&
      e.configPath === 'p',
  );
});
