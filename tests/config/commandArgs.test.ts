import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArgs } from 'node:util';
import { argsProblem, joinOptionValues } from '../../src/config/commandArgs.ts';

test('an option the predicate accepts is joined with its value; the rest is left as it is', () => {
  const negative = (option: string, value: string) => option === '--limit' && /^-\d/.test(value);
  assert.deepEqual(joinOptionValues(['jobs', '--limit', '-1', '--json'], negative), ['jobs', '--limit=-1', '--json']);
  assert.deepEqual(joinOptionValues(['--limit', '5'], negative), ['--limit', '5']);
  assert.deepEqual(joinOptionValues(['--limit'], negative), ['--limit']);
});

test("argsProblem: the kind from parseArgs's error code, the option as typed, Node's text never read", () => {
  const options = { limit: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
  const refusal = (args: string[]) => {
    try {
      parseArgs({ args, options, strict: true, allowPositionals: true });
    } catch (e) {
      return argsProblem(e, args, options);
    }
    assert.fail(`parseArgs took ${args.join(' ')}`);
  };
  assert.deepEqual(refusal(['jobs', '--limt', '3']), { kind: 'unknown option', option: '--limt' });
  assert.deepEqual(refusal(['-hx']), { kind: 'unknown option', option: '-x' });
  assert.deepEqual(refusal(['--limit']), { kind: 'missing value', option: '--limit' });
  assert.deepEqual(refusal(['--limit', '--json']), { kind: 'missing value', option: '--limit' }, 'the next option is not a value');
  assert.deepEqual(refusal(['--json=yes']), { kind: 'unexpected value', option: '--json' });
  // The same code with its message changed (a Node upgrade): the same answer.
  const reworded = Object.assign(new TypeError('Option argument missing (reworded)'), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
  assert.deepEqual(argsProblem(reworded, ['--json', '--limit'], options), { kind: 'missing value', option: '--limit' });
});

test('argsProblem rethrows what is not a refusal of the command line', () => {
  const bug = new RangeError('something else');
  assert.throws(() => argsProblem(bug, ['--json'], { json: { type: 'boolean' } }), bug);
  const stray = Object.assign(new TypeError('x'), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' });
  assert.throws(() => argsProblem(stray, ['--json'], { json: { type: 'boolean' } }), stray, 'no unknown option in the line');
});
