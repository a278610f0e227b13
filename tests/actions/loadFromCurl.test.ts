/** load_from_curl (spec 05 §7): every command form the spec lists, and its errors. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastLine, outIsEmpty, runAction } from './run.ts';

function curl(command: string, baseUrl = 'http://localhost:3000/') {
  return runAction({ action: 'load_from_curl', parameters: { config: {}, api: { baseUrl }, __CURL_COMMAND: command } });
}

test('the end-to-end fixture: full URL outside the base, exact bytes', async () => {
  const r = await curl('curl "https://jsonplaceholder.typicode.com/posts"', 'http://127.0.0.1:8000');
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    '{"__NAME": "https://jsonplaceholder.typicode.com/posts", "endpoint": "https://jsonplaceholder.typicode.com/posts", "children": [], "method": "GET", "dataType": "posts", "dataField": {"path": ".", "separator": "."}, "params": {}, "headers": {}}',
  );
  assert.ok(outIsEmpty(r.dir));
});

test('GET with query, header, --include, URL templates with braces', async () => {
  const r = await curl(
    'curl --include --header "X-StorageApi-Token: your_token" \'https://connection.keboola.com/v2/storage/events?sinceId={sinceId}&limit=10&offset={offset}\'',
    '',
  );
  const job = r.answer();
  assert.equal(job.endpoint, 'https://connection.keboola.com/v2/storage/events');
  assert.equal(job.dataType, 'events');
  assert.deepEqual(job.params, { sinceId: '_sinceId_', limit: '10', offset: '_offset_' });
  assert.deepEqual(job.headers, { 'X-StorageApi-Token': 'your_token' });
  const template = (await curl("curl 'https://connection.{{stack}}.keboola.com/v2/events?a={x}'", '')).answer();
  assert.equal(template.endpoint, 'https://connection.{{stack}}.keboola.com/v2/events');
  assert.deepEqual(template.params, { a: '_x_' });
});

test('endpoint relative to the base; line continuations, -X, -H, JSON body', async () => {
  const r = await curl(
    'curl -X POST http://localhost:3000/endpoint \\\n  -H "Content-Type: application/json" \\\n  -d \'{"key1": "value1", "key2": {"nested": "value2"}, "n": 1.0}\'',
  );
  assert.equal(
    r.stdout,
    '{"__NAME": "endpoint", "endpoint": "endpoint", "children": [], "method": "POST", "dataType": "endpoint", "dataField": {"path": ".", "separator": "."}, "params": {"key1": "value1", "key2": {"nested": "value2"}, "n": 1.0}, "headers": {"Content-Type": "application/json"}}',
  );
  const noSlash = (await curl('curl http://localhost:3000/v1/users', 'http://localhost:3000')).answer();
  assert.equal(noSlash.endpoint, '/v1/users');
  assert.equal(noSlash.dataType, 'users');
  const json = (await curl('curl --json \'{"a": [1, 2]}\' --url http://localhost:3000/things')).answer();
  assert.equal(json.method, 'POST');
  assert.deepEqual(json.params, { a: [1, 2] });
  assert.deepEqual(json.headers, { 'Content-Type': 'application/json', Accept: 'application/json' });
});

test('form bodies come out as POST (the helper defect kept), explicit and implicit content type', async () => {
  const implicit = (await curl('curl -d "a=1&b=x+y" --data-urlencode "c=d e&f" http://localhost:3000/form')).answer();
  assert.equal(implicit.method, 'POST');
  assert.deepEqual(implicit.params, { a: '1', b: 'x y', c: 'd e&f' });
  assert.deepEqual(implicit.headers, { 'Content-Type': 'application/x-www-form-urlencoded' });
  const explicit = (
    await curl("curl -XPOST -H 'content-type: application/x-www-form-urlencoded' --data-raw 'parameter=value' http://localhost:3000/f")
  ).answer();
  assert.equal(explicit.method, 'POST');
  assert.deepEqual(explicit.params, { parameter: 'value' });
});

test('-G sends data as query; -u, -k, --compressed, -sSL are ignored; -b gives a Cookie header', async () => {
  const r = (await curl('curl -sSL -k --compressed -u user:pass -b "a=b" -G -d "q=1" "http://localhost:3000/search?x=2"')).answer();
  assert.equal(r.method, 'GET');
  assert.deepEqual(r.params, { x: '2', q: '1' });
  assert.deepEqual(r.headers, { Cookie: 'a=b' });
});

test('errors (§7.1–§7.3)', async () => {
  const missing = await runAction({ action: 'load_from_curl', parameters: { config: {}, api: { baseUrl: '' } } });
  assert.equal(lastLine(missing), 'ValueError: cURL command not provided\n');
  assert.equal(lastLine(await curl('wget http://a.b/c')), 'ValueError: Not a valid cURL command\n');
  assert.equal(lastLine(await curl("curl 'http://a.b/c")), 'ValueError: No closing quotation\n');
  assert.equal(lastLine(await curl('curl -X GET /relative/only')), 'ValueError: No valid URL found in the cURL command\n');
  assert.equal(
    lastLine(await curl('curl -X PATCH http://localhost:3000/x')),
    'keboola.component.exceptions.UserException: Unsupported method PATCH, only GET, POST with JSON and POST with form data are supported.\n',
  );
  assert.equal(
    lastLine(await curl('curl -H "Content-Type: application/json" -d \'{"a":1}\' "http://localhost:3000/x?y=1"')),
    'keboola.component.exceptions.UserException: Query parameters are not supported for POST requests with JSON content type\n',
  );
  assert.match(lastLine(await curl('curl -d "a" -H "Content-Type: text/plain" http://localhost:3000/x')), /Unsupported method POST/);
});

test('quoting: double-quote escapes, $ and ; kept literally, --data and --data-binary joined with &', async () => {
  const r = (
    await curl(
      'curl --request POST --url "http://localhost:3000/a/b/" --header "X-Note: say \\"hi\\"; cost $5" --data "x=1" --data-binary \'y=2\'',
    )
  ).answer();
  assert.equal(r.endpoint, 'a/b');
  assert.equal(r.dataType, 'b');
  assert.deepEqual(r.headers, { 'X-Note': 'say "hi"; cost $5', 'Content-Type': 'application/x-www-form-urlencoded' });
  assert.deepEqual(r.params, { x: '1', y: '2' });
  const repeated = (await curl('curl "http://localhost:3000/q?a=1&a=2&b=%20c"')).answer();
  assert.deepEqual(repeated.params, { a: ['1', '2'], b: ' c' });
});

test('a repeated form key keeps its last value, where it first stood, as the helper answers (issue 26 #3)', async () => {
  const job = (await curl("curl -X POST 'http://localhost:3000/form' -d a=1 -d b=2 -d a=3")).answer();
  assert.equal(job.method, 'POST');
  assert.deepEqual(Object.entries(job.params), [
    ['a', '3'],
    ['b', '2'],
  ]);
});
