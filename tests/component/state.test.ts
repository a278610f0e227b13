/**
 * Publishing out/state.json (component/state.ts, run.ts): the state goes first and the tables
 * after it, so a state that cannot be written publishes nothing; its temporary file is created
 * exclusively under an unpredictable name. Real runs on real data folders.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { RunState } from '../../src/component/state.ts';
import { makeDataDir, runIn } from '../helpers/dataDir.ts';
import { json, serversClosedAfterTests } from '../helpers/httpServer.ts';
import { tempDir } from '../helpers/tempDirs.ts';

const api = serversClosedAfterTests();

async function usersApi() {
  return api((_req, res) => json(res, 200, [{ id: 1, name: 'A' }]));
}

function usersConfig(baseUrl: string) {
  return { parameters: { api: { baseUrl }, config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }] } } };
}

test('a state that cannot be written (state.json is a directory): exit 2, no table published, no temporary file', async () => {
  const s = await usersApi();
  const dir = makeDataDir(usersConfig(`${s.url}/`));
  fs.mkdirSync(path.join(dir, 'out', 'state.json'), { recursive: true });
  const r = await runIn(dir);
  assert.equal(r.code, 2, r.lines.join('\n'));
  assert.match(
    r.lines.at(-1)!,
    /logger\.ERROR: Writing .*out\/state\.json failed: it is a folder\. Remove it; the state is written to that file\./,
  );
  assert.doesNotMatch(r.lines.at(-1)!, /trace/);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'out')), ['state.json']);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'out', 'state.json')), []);
});

test('tables that cannot be moved into place take the new state back', async () => {
  const s = await usersApi();
  const dir = makeDataDir(usersConfig(`${s.url}/`));
  fs.mkdirSync(path.join(dir, 'out'));
  // out/tables is a file: the move of the tables fails after the state was written.
  fs.writeFileSync(path.join(dir, 'out', 'tables'), 'not a folder');
  const r = await runIn(dir);
  assert.equal(r.code, 2, r.lines.join('\n'));
  assert.deepEqual(fs.readdirSync(path.join(dir, 'out')), ['tables']);
});

test('a failed run puts back the out/state.json a previous run left in the folder', async () => {
  const s = await usersApi();
  const dir = makeDataDir(usersConfig(`${s.url}/`));
  fs.mkdirSync(path.join(dir, 'out'));
  fs.writeFileSync(path.join(dir, 'out', 'state.json'), '{"previous":true}');
  fs.writeFileSync(path.join(dir, 'out', 'tables'), 'not a folder');
  const r = await runIn(dir);
  assert.equal(r.code, 2);
  assert.equal(fs.readFileSync(path.join(dir, 'out', 'state.json'), 'utf8'), '{"previous":true}');
  assert.deepEqual(fs.readdirSync(path.join(dir, 'out')).sort(), ['state.json', 'tables']);
});

test('a symlink planted where the temporary state used to be written is not followed', async () => {
  const s = await usersApi();
  const dir = makeDataDir(usersConfig(`${s.url}/`));
  const victim = path.join(tempDir('ge-victim-'), 'victim.txt');
  fs.writeFileSync(victim, 'precious');
  fs.mkdirSync(path.join(dir, 'out'));
  // The name the state was written under before: out/state.json.tmp-<pid> (runIn runs in this process).
  fs.symlinkSync(victim, path.join(dir, 'out', `state.json.tmp-${process.pid}`));
  const r = await runIn(dir);
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious');
  assert.match(r.state()!, /"previousStart"/);
});

test('the temporary state file is opened exclusively under a new random name each time', () => {
  const dir = tempDir('ge-state-');
  const names = new Set<string>();
  const opened: string[] = [];
  const openSync = fs.openSync;
  // Watching the real call: the flags the file is created with, and its name.
  fs.openSync = ((file: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) => {
    if (String(file).includes('.tmp-')) opened.push(`${path.basename(String(file))} ${String(flags)}`);
    return openSync(file, flags ?? 'r', mode);
  }) as typeof fs.openSync;
  try {
    for (let i = 0; i < 3; i++) RunState.publish(dir, `{"n":${i}}`);
  } finally {
    fs.openSync = openSync;
  }
  for (const line of opened) {
    const [name, flags] = line.split(' ');
    assert.equal(flags, 'wx');
    names.add(name!);
  }
  assert.equal(opened.length, 3);
  assert.equal(names.size, 3);
  assert.equal(fs.readFileSync(path.join(dir, 'out', 'state.json'), 'utf8'), '{"n":2}');
  assert.deepEqual(fs.readdirSync(path.join(dir, 'out')), ['state.json']);
});
