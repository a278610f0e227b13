/** The evaluation algorithm (spec 02 §11.1–§11.3, §11.10). */
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { ApplicationError } from '../../src/errors/ApplicationError.ts';
import { UserError } from '../../src/errors/UserError.ts';
import { evaluate, evaluateTopLevel, flattenContext, functionNames, type FunctionContext } from '../../src/functions/index.ts';
import { SecretRegistry } from '../../src/logging/redact.ts';
import { JsonObject, PhpArray, type Value } from '../../src/php/value.ts';
import { f, fn, obj, run } from './helpers.ts';

const userError = (message: string) => (e: unknown) => e instanceof UserError && e.message === message;

const config = obj({
  server: 'mock-server:80',
  '#token': 'secret',
  n: 12,
  ratio: f(1.5),
  on: true,
  nothing: null,
  empty: '',
  columns: [],
  ids: [7, 8],
  nested: obj({ port: 8080, deep: obj({ x: 'y' }) }),
  http: obj({ headers: obj({ 'X-Auth': fn('md5', 'a') }) }),
});
const ctx: FunctionContext = { attr: flattenContext(config), time: flattenContext(obj({ previousStart: 0, currentStart: 1508620560 })) };

describe('flattenContext()', () => {
  it('joins nested keys with dots and keeps only leaves', () => {
    const m = flattenContext(config);
    assert.equal(m.get('nested.port'), 8080);
    assert.equal(m.get('nested.deep.x'), 'y');
    assert.equal(m.get('ids.0'), 7);
    assert.equal(m.get('ids.1'), 8);
    assert.equal(m.has('nested'), false);
    assert.equal(m.has('columns'), false);
    assert.equal(m.get('empty'), '');
    assert.equal(m.has('nothing'), true);
    assert.equal(m.get('http.headers.X-Auth.function'), 'md5');
    assert.equal(m.get('http.headers.X-Auth.args.0'), 'a');
  });
  it('flattens lists, response objects and scalars', () => {
    assert.deepEqual(
      [...flattenContext(['a', ['b']])],
      [
        ['0', 'a'],
        ['1.0', 'b'],
      ],
    );
    assert.deepEqual([...flattenContext(new JsonObject([['a', new JsonObject([['b', 1]])]]))], [['a.b', 1]]);
    assert.equal(flattenContext('text').size, 0);
  });
});

describe('context references', () => {
  it('resolve leaves with their JSON type', () => {
    assert.equal(run(obj({ attr: 'server' }), ctx), 'mock-server:80');
    assert.equal(run(obj({ attr: '#token' }), ctx), 'secret');
    assert.equal(run(obj({ attr: 'n' }), ctx), 12);
    assert.deepEqual(run(obj({ attr: 'ratio' }), ctx), f(1.5));
    assert.equal(run(obj({ attr: 'on' }), ctx), true);
    assert.equal(run(obj({ attr: 'empty' }), ctx), '');
    assert.equal(run(obj({ attr: 'nested.port' }), ctx), 8080);
    assert.equal(run(obj({ attr: 'ids.1' }), ctx), 8);
    assert.equal(run(obj({ time: 'currentStart' }), ctx), 1508620560);
    assert.equal(run(obj({ time: 'previousStart' }), ctx), 0);
  });
  it('report missing, null, non-leaf and emptied keys as not found', () => {
    for (const key of ['missing', 'nothing', 'nested', 'columns', 'ids']) {
      assert.throws(() => run(obj({ attr: key }), ctx), userError(`Error evaluating user function - attr '${key}' not found!`));
    }
    assert.throws(() => run(obj({ time: 'x' }), ctx), userError("Error evaluating user function - time 'x' not found!"));
  });
  it('report an object (or list) key as "is not a string" with the PHP JSON form', () => {
    assert.throws(
      () => run(obj({ attr: obj({ a: 'b/c', u: 'é' }) }), ctx),
      userError(`Error evaluating user function - attr '{"a":"b\\/c","u":"\\u00e9"}' is not a string!`),
    );
    assert.throws(() => run(obj({ attr: ['x'] }), ctx), userError(`Error evaluating user function - attr '["x"]' is not a string!`));
  });
  it('use the PHP string form of scalar keys', () => {
    const c: FunctionContext = { attr: flattenContext(['zero', 'one']) };
    assert.equal(run(obj({ attr: 1 }), c), 'one');
    assert.equal(run(obj({ attr: true }), c), 'one');
    assert.throws(() => run(obj({ attr: 5 }), c), userError("Error evaluating user function - attr '5' not found!"));
  });
  it('are plain objects where the context is not available', () => {
    const out = run(obj({ time: 'currentStart' }), { attr: ctx.attr! });
    assert.ok(out instanceof PhpArray);
    assert.deepEqual([...(out as PhpArray)], [['time', 'currentStart']]);
    const placeholderOnly: FunctionContext = { placeholder: flattenContext(obj({ value: 'v' })) };
    assert.deepEqual(run(obj({ attr: 'server' }), placeholderOnly), obj({ attr: 'server' }));
    assert.equal(run(obj({ placeholder: 'value' }), placeholderOnly), 'v');
  });
  it('only count single-key objects', () => {
    const out = run(obj({ attr: 'server', other: fn('concat', 'a', 'b') }), ctx) as PhpArray;
    assert.deepEqual(
      [...out],
      [
        ['attr', 'server'],
        ['other', 'ab'],
      ],
    );
  });
  it('other single-key objects such as {"param": …} stay objects', () => {
    assert.deepEqual(run(obj({ param: 'x' }), ctx), obj({ param: 'x' }));
  });
});

describe('function calls', () => {
  it('evaluate nested arguments depth-first', () => {
    const expr = fn('concat', 'http://', obj({ attr: 'server' }), '/087-function-baseurl/');
    assert.equal(run(expr, ctx), 'http://mock-server:80/087-function-baseurl/');
    assert.equal(run(fn('sprintf', 'http://%s/088/', obj({ attr: 'server' })), ctx), 'http://mock-server:80/088/');
    // spec 02 §4 worked example: query auth signature md5(#key . request.path)
    const sig = fn('md5', fn('concat', obj({ attr: '#key' }), obj({ request: 'path' })));
    const queryCtx: FunctionContext = { attr: flattenContext(obj({ '#key': 'K1' })), request: new Map([['path', '/v2/items']]) };
    assert.equal(run(sig, queryCtx), 'ab488da0542103db8acdd2450b7ec75d');
  });
  it('accept args given as an object (values in order) and missing args', () => {
    const call = new PhpArray([
      ['function', 'concat'],
      ['args', obj({ x: 'a', y: 'b' })],
    ]);
    assert.equal(run(call), 'ab');
    assert.equal(run(new PhpArray([['function', 'concat']])), '');
    assert.equal(run(new PhpArray([['function', 'time']])), 1508620560);
  });
  it('ignore other properties of the call object', () => {
    const call = new PhpArray([
      ['function', 'concat'],
      ['args', ['a']],
      ['attr', 'server'],
      ['comment', 'ignored'],
    ]);
    assert.equal(run(call, ctx), 'a');
  });
  it('keep PHP types of results', () => {
    assert.equal(run(fn('time')), 1508620560);
    assert.equal(run(fn('strtotime', 'garbage')), false);
    assert.deepEqual(run(fn('ifempty', '', f(2.5))), f(2.5));
  });
  it('evaluate lists element-wise and objects member-wise, keeping the map class', () => {
    assert.deepEqual(run([fn('concat', 'a', 'b'), 1, [fn('md5', '')]]), ['ab', 1, ['d41d8cd98f00b204e9800998ecf8427e']]);
    const response = new JsonObject([
      ['a', fn('concat', 'x')],
      ['b', 2],
    ]);
    const out = run(response);
    assert.ok(out instanceof JsonObject);
    assert.deepEqual(
      [...(out as JsonObject)],
      [
        ['a', 'x'],
        ['b', 2],
      ],
    );
  });
  it('post body example 136-post-request-functions', () => {
    const params = obj({ filter: obj({ userName: 'JohnDoe', company: fn('concat', 'id-', 12) }) });
    assert.deepEqual(evaluateTopLevel(params, ctx), obj({ filter: obj({ userName: 'JohnDoe', company: 'id-12' }) }));
  });
  it('userData example 091-function-user-data', () => {
    const userData = obj({
      currentDate: fn('date', 'Y-m-d H:i:s:u'),
      extractDate: fn('date', 'Y-m-d H:i:s:u', obj({ time: 'currentStart' })),
    });
    const out = evaluateTopLevel(userData, ctx, { now: () => 1508620999_500 }) as PhpArray;
    assert.deepEqual(
      [...out],
      [
        ['currentDate', '2017-10-21 21:23:19:000000'],
        ['extractDate', '2017-10-21 21:16:00:000000'],
      ],
    );
  });
  it('object arguments of string functions are internal errors', () => {
    assert.throws(() => run(fn('concat', obj({ a: 1, b: 2 }))), ApplicationError);
    assert.throws(() => run(fn('concat', obj({ attr: 'x' }))), ApplicationError); // no attr context here
  });
});

describe('Illegal function', () => {
  it('rejects unknown names, case-sensitively', () => {
    assert.throws(() => run(fn('exec', 'ls')), userError("Illegal function 'exec'!"));
    assert.throws(() => run(fn('MD5', 'x')), userError("Illegal function 'MD5'!"));
    assert.throws(() => run(fn('')), userError("Illegal function ''!"));
  });
  it("lists the known functions in the error context (the message stays the reference's)", () => {
    assert.throws(
      () => run(fn('concatt', 'a', 'b')),
      (e: unknown) => {
        assert.ok(e instanceof UserError);
        const known = e.context['knownFunctions'] as string[];
        assert.ok(known.includes('concat') && known.includes('md5'), String(known));
        assert.ok(!known.includes('urlencode'), 'urlencode is for placeholders only');
        return true;
      },
    );
  });
  it('checks the name before evaluating the arguments', () => {
    assert.throws(() => run(fn('nope', obj({ attr: 'missing' })), ctx), userError("Illegal function 'nope'!"));
  });
  it('JSON-encodes non-scalar names, interpolates scalars', () => {
    const nested = fn('concat', 'di', 'e');
    assert.throws(
      () => run(new PhpArray([['function', nested]])),
      userError(`Illegal function '{"function":"concat","args":["di","e"]}'!`),
    );
    assert.throws(() => run(new PhpArray([['function', ['md5']]])), userError(`Illegal function '["md5"]'!`));
    assert.throws(() => run(new PhpArray([['function', null]])), userError("Illegal function 'null'!"));
    assert.throws(() => run(new PhpArray([['function', 12]])), userError("Illegal function '12'!"));
    assert.throws(() => run(new PhpArray([['function', true]])), userError("Illegal function '1'!"));
    assert.throws(() => run(new PhpArray([['function', false]])), userError("Illegal function ''!"));
    assert.throws(() => run(new PhpArray([['function', f(1.5)]])), userError("Illegal function '1.5'!"));
  });
  it('allows urlencode only in placeholder functions', () => {
    assert.throws(() => run(fn('urlencode', 'a b')), userError("Illegal function 'urlencode'!"));
    assert.equal(run(fn('urlencode', 'a b'), {}, true), 'a+b');
  });
  it('exposes the known names for hints', () => {
    assert.deepEqual(functionNames().sort(), [
      'base64_encode',
      'concat',
      'date',
      'hash',
      'hash_hmac',
      'ifempty',
      'implode',
      'md5',
      'sha1',
      'sprintf',
      'strtotime',
      'time',
    ]);
    assert.ok(functionNames({ allowUrlencode: true }).includes('urlencode'));
  });
});

describe('evaluateTopLevel()', () => {
  it('evaluates only object members; lists and scalars are verbatim', () => {
    const place = obj({
      a: fn('concat', 'x', 'y'),
      b: [fn('concat', 'not', 'evaluated')],
      c: 'literal',
      d: 5,
      e: obj({ attr: 'server' }),
      g: null,
    });
    const out = evaluateTopLevel(place, ctx) as PhpArray;
    assert.ok(out instanceof PhpArray);
    assert.deepEqual(out.get('a'), 'xy');
    assert.deepEqual(out.get('b'), [fn('concat', 'not', 'evaluated')]);
    assert.equal(out.get('c'), 'literal');
    assert.equal(out.get('d'), 5);
    assert.equal(out.get('e'), 'mock-server:80');
    assert.equal(out.get('g'), null);
  });
  it('returns scalars as they are and evaluates object elements of a list place', () => {
    assert.equal(evaluateTopLevel('x', ctx), 'x');
    assert.deepEqual(evaluateTopLevel([fn('concat', 'a'), 'b', [fn('concat', 'c')]] as Value[], ctx), ['a', 'b', [fn('concat', 'c')]]);
  });
  it('passes errors through raw (callers add "User script error: ")', () => {
    assert.throws(
      () => evaluateTopLevel(obj({ a: obj({ attr: 'nope' }) }), ctx),
      userError("Error evaluating user function - attr 'nope' not found!"),
    );
  });
  it('defaults to the real clock', () => {
    const before = Math.floor(Date.now() / 1000);
    const t = evaluate(fn('time'), {}) as number;
    assert.ok(t >= before && t <= before + 5);
  });
});

describe('registry', () => {
  it('documents every function with group, description and arity', async () => {
    const { listFunctions } = await import('../../src/functions/index.ts');
    const specs = listFunctions();
    assert.equal(specs.length, 13);
    for (const s of specs) {
      assert.ok(['hash', 'string', 'time'].includes(s.group), s.name);
      assert.ok(s.description.startsWith(s.name + '('), s.name);
      assert.ok(s.maxArgs === undefined || s.maxArgs >= s.minArgs, s.name);
    }
  });
});

test('a function result computed from a secret is a secret too (an HMAC keyed with a # key, a hash, nested calls)', () => {
  const secrets = new SecretRegistry();
  secrets.add('hmacKey-secret-1');
  const ctx = {
    attr: new Map<string, Value>([
      ['#key', 'hmacKey-secret-1'],
      ['user', 'johndoe'],
    ]),
  };
  const call = (name: string, args: Value[]): Value =>
    new Map<string, Value>([
      ['function', name],
      ['args', args],
    ]);
  const hmac = evaluate(call('hash_hmac', ['sha256', 'payload', new Map([['attr', '#key']])]), ctx, { secrets });
  const nested = evaluate(call('md5', [call('concat', [new Map([['attr', '#key']]), '-x'])]), ctx, { secrets });
  const plain = evaluate(call('md5', [new Map([['attr', 'user']])]), ctx, { secrets });
  const short = evaluate(call('sprintf', ['%.3s', new Map([['attr', '#key']])]), ctx, { secrets });
  assert.equal(secrets.redact(`sig=${hmac}&h=${nested}`), 'sig=[hidden]&h=[hidden]');
  // A value computed from no secret, and a short one (three characters of it), stay visible.
  assert.equal(short, 'hma');
  assert.equal(secrets.redact(`u=${plain}&p=${short}`), `u=${plain}&p=hma`);
});
