/** perform_function (spec 05 §8): the helper's catalogue and its documented differences. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastLine, runAction } from './run.ts';

function fn(expression: unknown, config: Record<string, unknown> = {}) {
  return runAction({ action: 'perform_function', parameters: { config, __FUNCTION_CFG: expression } });
}

const call = (name: string, ...args: unknown[]) => ({ function: name, args });

test('fixtures of the helper (§8.3)', async () => {
  const cases: [unknown, string][] = [
    [call('md5', 'NotSoSecret'), '{"result": "1228d3ff5089f27721f1e0403ad86e73"}'],
    [call('sha1', 'NotSoSecret'), '{"result": "64d5d2977cc2573afbd187ff5e71d1529fd7f6d8"}'],
    [call('base64_encode', 'TeaPot'), '{"result": "VGVhUG90"}'],
    [
      call('hash_hmac', 'sha256', '12345abcd5678efgh90ijk', 'TeaPot'),
      '{"result": "7bd4ec99a609b3a9b1f79bc155037cf70939f6bff50b0012fc49e350586bf554"}',
    ],
    [call('implode', ',', ['apples', 'oranges', 'plums']), '{"result": "apples,oranges,plums"}'],
    [call('concat', 'Hen', 'Or', 'Egg'), '{"result": "HenOrEgg"}'],
    [call('sprintf', 'Three %s are %.2f %s.', 'apples', 0.5, 'plums'), '{"result": "Three apples are 0.50 plums."}'],
    [call('ifempty', '', 'Banzai'), '{"result": "Banzai"}'],
    // The helper's ifempty answers null for a non-empty test (copied, §8.3); "0" is non-empty.
    [call('ifempty', '0', 'Banzai'), '{"result": null}'],
    [call('date', 'Y-m-d', 86400 * 365), '{"result": "1971-01-01"}'],
    [call('strtotime', '-2 days', 1609459200), '{"result": 1609286400}'],
    [call('string_to_date', '2021-03-04', '%d.%m.%Y'), '{"result": "04.03.2021"}'],
    ['plain text', '{"result": "plain text"}'],
    [[{ function: 'md5', args: ['x'] }], '{"result": [{"function": "md5", "args": ["x"]}]}'],
    [{ a: call('concat', 'x', 'y'), b: 2 }, '{"result": {"a": "xy", "b": 2}}'],
  ];
  for (const [expression, expected] of cases) {
    const r = await fn(expression);
    assert.equal(r.stdout, expected, JSON.stringify(expression));
  }
});

test('time references and user parameters (attr, evaluated in order)', async () => {
  const before = Math.floor(Date.now() / 1000);
  const r = await fn(
    { function: 'concat', args: [{ attr: 'greeting' }, '-', { attr: 'number' }] },
    { first: 'Hi', greeting: call('concat', { attr: 'first' }, '!'), number: 'n' },
  );
  assert.equal(r.stdout, '{"result": "Hi!-n"}');
  const time = (await fn({ time: 'previousStart' })).answer().result;
  assert.ok(time >= before && time <= before + 60);
  const nested = (await fn(call('date', 'Y', call('strtotime', 'now', { time: 'currentStart' })))).answer().result;
  assert.equal(nested, String(new Date().getUTCFullYear()));
});

test('errors become envelopes with the helper texts', async () => {
  const missing = await runAction({ action: 'perform_function', parameters: { config: {} } });
  assert.equal(lastLine(missing), "KeyError: '__FUNCTION_CFG'\n");
  assert.match(
    lastLine(await fn(call('nope'))),
    /^ValueError: Specified user function \[nope\] is not supported! Supported functions are \['base64_encode', /,
  );
  assert.equal(lastLine(await fn({ attr: 'absent' })), "KeyError: 'absent'\n");
  assert.match(lastLine(await fn(call('md5'))), /^TypeError: md5\(\) takes 1 arguments but 0 were given/);
  assert.equal(lastLine(await fn(call('strtotime', 'not a date at all'))), "ValueError: invalid literal for int() with base 10: ''\n");
  assert.equal(lastLine(await fn(call('sprintf', '%s %s', 'one'))), 'TypeError: not enough arguments for format string\n');
});

test('a # attribute in the result is masked as test_request masks it, also inside encodings of it', async () => {
  const config = { '#token': 'tok/é+1', user: 'me' };
  assert.equal((await fn(call('concat', 'Bearer ', { attr: '#token' }), config)).stdout, '{"result": "Bearer --HIDDEN--"}');
  assert.equal((await fn(call('base64_encode', { attr: '#token' }), config)).stdout, '{"result": "--HIDDEN--"}');
  assert.equal(
    (await fn({ a: [{ attr: '#token' }, { attr: 'user' }] }, config)).stdout,
    '{"result": {"a": [{"attr": "#token"}, {"attr": "user"}]}}',
  );
  assert.equal((await fn({ h: { attr: '#token' }, u: { attr: 'user' } }, config)).stdout, '{"result": {"h": "--HIDDEN--", "u": "me"}}');
});

test('an unknown hash algorithm is the helper\'s user error (its PHP warning), not {"result": false} (issue 26 #3)', async () => {
  const unknown = await fn(call('hash', 'no-such-algo', 'x'));
  assert.equal(unknown.code, 0);
  assert.equal(unknown.answer().status, 'exception');
  assert.equal(
    lastLine(unknown),
    'keboola.component.exceptions.UserException: Error while performing hash function: PHP Warning:  hash(): Unknown hashing algorithm: no-such-algo in Command line code on line 1\n',
  );
  const checksum = await fn(call('hash_hmac', 'crc32b', 'key', 'message'));
  assert.match(
    lastLine(checksum),
    /Error while performing hash_hmac function: PHP Warning: {2}hash_hmac\(\): Non-cryptographic hashing algorithm: crc32b/,
  );
});

test('string_to_date answers a real calendar date or a ValueError, never a rolled-over or NaN date', async () => {
  const cases: [unknown, string][] = [
    [call('string_to_date', '9999-99-99'), "ValueError: Could not parse the date '9999-99-99'\n"],
    [call('string_to_date', '2021-02-29'), "ValueError: Could not parse the date '2021-02-29'\n"],
    [call('string_to_date', '@99999999999999'), 'ValueError: year 3170843 is out of range\n'],
  ];
  for (const [expression, last] of cases) assert.equal(lastLine(await fn(expression)), last, JSON.stringify(expression));
  // Years below 100 are years of the first century (Date.UTC would read 0050 as 1950); %Y is not padded (glibc).
  assert.equal((await fn(call('string_to_date', '0050-01-01', '%d.%m.%Y'))).stdout, '{"result": "01.01.50"}');
  assert.equal((await fn(call('string_to_date', '2020-02-29'))).stdout, '{"result": "2020-02-29"}');
});
