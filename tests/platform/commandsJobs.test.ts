/** jobs, job, job log (--follow), job kill, run --wait with its log, against the fake platform (06 §5, §6). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakePlatform, startFakePlatform } from '../../src/platform/fake/fakePlatform.ts';
import { cli } from './fakePlatformCli.ts';

const COMPONENT = 'keboola.ex-generic-v2';
let platform: FakePlatform;
before(async () => {
  platform = await startFakePlatform({ stepMs: 5, runSteps: 3 });
  for (const id of ['one', 'two']) configure(platform, id);
});
after(() => platform.close());

function configure(on: FakePlatform, id: string): void {
  on.storage.store(COMPONENT, id, { parameters: { config: { jobs: [] } } });
}

const LOG_LINE = /^ {2}\d{4}-\d\d-\d\dT[\d:.]+Z (info|success|warn|error) +\S/;

describe('run --wait and the job log', () => {
  test('run --wait prints the job log lines as they come, then the final status', async () => {
    const o = await cli(platform, ['run', '--component', COMPONENT, '--config', 'one', '--wait']);
    assert.equal(o.code, 0, o.stderr.join('\n'));
    const logLines = o.stdout.filter((l) => LOG_LINE.test(l));
    assert.deepEqual(
      logLines.map((l) => l.replace(/^ {2}\S+ \S+ +/, '')),
      [
        `Job "${/job (\d+)/.exec(o.stdout[0]!)![1]}" created`,
        `Running component "${COMPONENT}"`,
        'Extracting 1 iteration from 1 configuration',
        `Job "${/job (\d+)/.exec(o.stdout[0]!)![1]}" ended with status "success": Component processing finished.`,
      ],
    );
    assert.match(o.stdout.at(-1)!, /^job \d+: success /);
    // The log lines are printed while the job runs: all of them before the final status line.
    assert.ok(o.stdout.indexOf(logLines.at(-1)!) < o.stdout.length - 1);
  });

  test('job log: oldest first; --follow until the job ends; a failed job exits 1', async () => {
    const created = await cli(platform, ['run', '--component', COMPONENT, '--config', 'two', '--json']);
    const id = JSON.parse(created.stdout.join('\n')).id as string;
    const follow = await cli(platform, ['job', 'log', id, '--follow']);
    assert.equal(follow.code, 0);
    assert.match(follow.stdout[0]!, new RegExp(`info +Job "${id}" created$`));
    assert.match(follow.stdout.at(-1)!, /success +Job "\d+" ended with status "success"/);
    const log = await cli(platform, ['job', 'log', '--id', id]);
    assert.deepEqual(log.stdout, follow.stdout);
    const json = await cli(platform, ['job', 'log', id, '--json']);
    assert.deepEqual(
      JSON.parse(json.stdout.join('\n')).map((e: { runId: string }) => e.runId),
      Array(follow.stdout.length).fill(id),
    );
  });
});

describe('jobs, job, job kill', () => {
  test('jobs lists the newest first, filtered by configuration and status', async () => {
    const o = await cli(platform, ['jobs', '--component', COMPONENT, '--config', 'two']);
    assert.equal(o.code, 0);
    assert.ok(o.stdout.length >= 1);
    for (const line of o.stdout) assert.match(line, new RegExp(`^\\d+\\t\\w+ *\\t${COMPONENT.replace(/\./g, '\\.')}\\ttwo\\t`));
    const ids = o.stdout.map((l) => Number(l.split('\t')[0]));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );
    const none = await cli(platform, ['jobs', '--status', 'terminated', '--config', 'two']);
    assert.deepEqual(none.stdout, ['no jobs']);
    const search = platform.seen.filter((s) => s.path.startsWith('/search/jobs')).at(-1)!;
    assert.match(search.path, /configId=two&status%5B%5D=terminated&limit=20&sortOrder=desc/);
  });

  test('job kill: a running job is terminated; a finished job is not sent a kill', async (t) => {
    // A platform of its own whose jobs run for a minute: only the kill can end them.
    const slow = await startFakePlatform({ stepMs: 20, runSteps: 3000 });
    t.after(() => slow.close());
    configure(slow, 'long');
    const created = await cli(slow, ['run', '--component', COMPONENT, '--config', 'long', '--json']);
    const id = JSON.parse(created.stdout.join('\n')).id as string;
    const kill = await cli(slow, ['job', 'kill', id]);
    assert.deepEqual(kill, { code: 0, stdout: [`job ${id}: kill requested (terminating)`], stderr: [] });
    const waited = await cli(slow, ['job', id, '--wait']);
    assert.equal(waited.code, 1);
    assert.ok(
      waited.stdout.some((l) => new RegExp(`^job ${id}: (cancelled|terminated) `).test(l)),
      waited.stdout.join('\n'),
    );
    slow.seen.length = 0;
    const again = await cli(slow, ['job', 'kill', id]);
    assert.equal(again.code, 0);
    assert.match(again.stdout[0]!, /already finished: nothing to kill\)$/);
    assert.deepEqual(
      slow.seen.filter((s) => s.path.endsWith('/kill')),
      [],
    );
  });

  test('job shows the detail; an unknown job names the service, the status and the message', async () => {
    const o = await cli(platform, ['job', '1001']);
    assert.equal(o.code, 0);
    assert.match(o.stdout[0]!, /^job 1001: success /);
    assert.ok(o.stdout.includes(`  component: ${COMPONENT}`));
    const missing = await cli(platform, ['job', '999999']);
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr[0]!,
      /^ex-generic-platform: Job Queue API: HTTP 404 from GET http:\/\/127\.0\.0\.1:\d+\/jobs\/999999: Job "999999" not found$/,
    );
  });

  test('the token: never to the Encryption API, never printed, only to the services of the index', async () => {
    const origins = new Set(platform.seen.filter((s) => s.token !== undefined).map((s) => s.server));
    assert.ok(!origins.has('encryption'));
    assert.ok(platform.seen.filter((s) => s.token !== undefined).every((s) => s.token === platform.token));
  });
});
