/**
 * Every wrong option value the schema lets us name (wrongOptionCases.ts) is either accepted — the
 * reference reads it loosely too, and the run succeeds — or refused: exit 1 (a user error), or
 * exit 2 where the reference crashes with a PHP type error and the spec keeps it (01 §1.4, §2.3;
 * 03 §1.3, §5.1), with one ERROR line whose config path is the option's (or inside it), no stack
 * trace and nothing in out/. A crash, an error naming another path or a failure without a path is
 * a finding. The runs are in process against one local API.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { cleanup, outIsEmpty, type Run, runWith, sendJson, startFaultServer, strip, type FaultServer } from './helpers.ts';
import { authMethodTypes } from '../../src/auth/registry.ts';
import { paginationMethodSpecs } from '../../src/pagination/index.ts';
import { type Json, type WrongKind, withValue, wrongOptionCases } from './wrongOptionCases.ts';

let api: FaultServer;
let B = '';

before(async () => {
  // A login (POST) gets a token; a job gets records on a path's first request and an empty page
  // after that, so every pagination ends.
  api = await startFaultServer((q, res, attempt) => {
    if (q.method !== 'GET' || q.target.includes('login')) return sendJson(res, 200, { access_token: 'token-1234', expires_in: 3600 });
    sendJson(res, 200, attempt === 0 ? [{ id: 1, name: 'a' }] : []);
  });
  B = `${api.url}/`;
});
after(() => api.close());

function local(v: Json): Json {
  if (v === '$B') return B;
  if (Array.isArray(v)) return v.map(local);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, local(x)]));
  return v;
}

const FRAME = /\bat (?:async )?\S*\s*\(?(?:file:|node:|\/)[^\s)]*:\d+:\d+\)?/;

/**
 * What is wrong with a run's outcome for an option path; undefined: acceptable. A value of the
 * wrong type or an unknown name that the run accepts (as the reference reads it) must at least be
 * a WARNING naming the path; `null` (PHP's "not set") and a negative count may run silently.
 */
function problem(r: Run, path: string, kind: WrongKind): string | undefined {
  if (r.code === 0) {
    const warned = r.lines.some((l) => l.includes('] logger.WARNING: ') && l.includes(path));
    return (kind === 'type' || kind === 'name') && !warned ? 'accepted without a WARNING naming it' : undefined;
  }
  const errors = r.lines.filter((l) => l.includes('] logger.ERROR: '));
  // The ERROR line, or the last line when there is none; an application error's hint (INFO) may follow.
  const last = strip(errors.length === 1 ? errors[0] : r.lines.at(-1));
  if (r.code !== 1 && r.code !== 2) return `exit ${r.code}: ${last}`;
  if (r.lines.some((l) => FRAME.test(l) || l.includes('"trace":'))) return `stack trace: ${last}`;
  if (errors.length !== 1) return `not one ERROR line: ${last}`;
  if (!outIsEmpty(r.dir)) return `out/ not empty: ${last}`;
  const named = /"configPath":"([^"]*)"/.exec(last)?.[1];
  if (named === undefined) return `no config path: ${last}`;
  if (named === path || named.startsWith(`${path}.`) || named.startsWith(`${path}[`)) return undefined;
  // A conflict with a sibling the context sets ('limitStop.field' and 'limitStop.count') belongs to
  // their parent, when the message names the option itself.
  const parentKey = path.slice(named.length + 1);
  if (path.startsWith(`${named}.`) && last.includes(`${named.split('.').pop()}.${parentKey}`)) return undefined;
  return `names ${named}: ${last}`;
}

test('the base configuration of every context runs', async () => {
  const bases = new Map(wrongOptionCases().map((c) => [JSON.stringify(c.base), c.path]));
  const failed: string[] = [];
  for (const [base, path] of bases) {
    const r = await runWith(local(JSON.parse(base) as Json));
    if (r.code !== 0) failed.push(`base of ${path}: ${strip(r.lines.at(-1))} ${base}`);
    cleanup(r);
  }
  assert.deepEqual(failed, []);
});

test('a wrong value of any option is accepted or refused naming its path', async () => {
  const findings: string[] = [];
  for (const c of wrongOptionCases()) {
    const r = await runWith(local(withValue(c.base, c.segments, c.value)));
    const found = problem(r, c.path, c.kind);
    if (found !== undefined) findings.push(`${c.path} = ${JSON.stringify(c.value)}: ${found.slice(0, 300)}`);
    cleanup(r);
  }
  assert.deepEqual(findings, []);
});

/** The built command on a data folder, as a user (or the platform) runs it. */
async function runBuilt(dir: string): Promise<{ code: number | null; lines: string[] }> {
  // Asynchronous: the API answering the command lives in this process.
  const child = spawn(process.execPath, ['dist/cli.js'], { env: { ...process.env, KBC_DATADIR: dir } });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, lines: stdout.trimEnd().split('\n') };
}

test('the built command refuses a wrong value of each kind of option as the run in process does', {
  skip: !fs.existsSync('dist/cli.js'),
}, async () => {
  // The first refused case of each context (api, config, a job, pagination, authentication, …).
  const picked = new Map<string, { dir: string; last: string }>();
  for (const c of wrongOptionCases()) {
    const context = c.segments.slice(0, 3).join('.');
    if (picked.has(context)) continue;
    const r = await runWith(local(withValue(c.base, c.segments, c.value)));
    if (r.code === 1) picked.set(context, { dir: r.dir, last: strip(r.lines.at(-1)) });
    else cleanup(r);
  }
  assert.ok(picked.size >= 5, [...picked.keys()].join(', '));
  for (const { dir, last } of picked.values()) {
    const built = await runBuilt(dir);
    assert.equal(built.code, 1, built.lines.join('\n'));
    assert.equal(strip(built.lines.at(-1)), last);
    assert.ok(outIsEmpty(dir), `${last}: out/ must stay empty`);
    cleanup({ dir });
  }
});

test('the generator covers every registered pagination method and authentication type', () => {
  const cases = wrongOptionCases();
  const used = (key: string): Set<unknown> => {
    const api = (c: (typeof cases)[number]) => (c.base as { parameters: { api: Record<string, Record<string, unknown>> } }).parameters.api;
    return new Set(cases.map((c) => api(c)[key === 'method' ? 'pagination' : 'authentication']?.[key]));
  };
  for (const spec of paginationMethodSpecs()) assert.ok(used('method').has(spec.method), `pagination method ${spec.method}`);
  for (const type of authMethodTypes()) assert.ok(used('type').has(type), `authentication type ${type}`);
  const paths = new Set(cases.map((c) => c.path));
  for (const p of [
    'parameters.api.pagination.limit',
    'parameters.config.jobs[0].children[0].placeholders',
    'parameters.config.mappings.users.id.mapping.destination',
  ])
    assert.ok(paths.has(p), p);
});
