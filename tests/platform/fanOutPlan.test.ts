/** Fan-out's plan, without a platform: slices, rows, and where each refusal points. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findPreviousStart, planIterations, planRows } from '../../src/platform/fanOutPlan.ts';
import type { ConfigurationRecord } from '../../src/platform/types.ts';

function record(configuration: Record<string, unknown>, rows: ConfigurationRecord[] = []): ConfigurationRecord {
  return { id: '42', name: 'c', configuration, rows };
}

const incremental = (iterations: unknown[]) => ({ parameters: { config: { incrementalOutput: true, jobs: [] }, iterations } });

describe('planIterations', () => {
  test('contiguous slices of nearly equal size, in order; the rest of the configuration copied unchanged', () => {
    const iterations = Array.from({ length: 10 }, (_, i) => ({ n: i }));
    const configuration = { ...incremental(iterations), storage: { output: {} } };
    (configuration.parameters.config as Record<string, unknown>)['#key'] = 'KBC::ProjectSecure::abc';
    const plan = planIterations({ component: 'c', record: record(configuration), force: false }, 4);
    assert.deepEqual(
      plan.map((p) => p.label),
      ['slice 1/4 (iterations 1–3)', 'slice 2/4 (iterations 4–6)', 'slice 3/4 (iterations 7–8)', 'slice 4/4 (iterations 9–10)'],
    );
    const data = plan.map((p) => p.args.extra!['configData'] as typeof configuration);
    assert.deepEqual(
      data.flatMap((d) => d.parameters.iterations),
      iterations,
    );
    for (const d of data) {
      assert.deepEqual(d.storage, { output: {} });
      assert.equal((d.parameters.config as Record<string, unknown>)['#key'], 'KBC::ProjectSecure::abc');
    }
    assert.ok(plan.every((p) => p.args.config === '42' && p.args.mode === 'run'));
  });

  test('more slices than iterations: one slice per iteration', () => {
    const plan = planIterations({ component: 'c', record: record(incremental([{}, {}])), force: false }, 8);
    assert.deepEqual(
      plan.map((p) => p.label),
      ['slice 1/2 (iteration 1)', 'slice 2/2 (iteration 2)'],
    );
  });

  test('an iteration may turn incremental output on for itself', () => {
    const configuration = { parameters: { config: { jobs: [] }, iterations: [{ incrementalOutput: true }, { incrementalOutput: true }] } };
    assert.equal(planIterations({ component: 'c', record: record(configuration), force: false }, 2).length, 2);
  });

  test('an iteration that turns it off is named', () => {
    const configuration = incremental([{}, {}, { incrementalOutput: false }]);
    assert.throws(
      () => planIterations({ component: 'c', record: record(configuration), force: false }, 2),
      (e: Error & { configPath?: string }) => e.configPath === 'parameters.iterations[2].incrementalOutput',
    );
  });

  test('a shared output bucket is not a bucket of its own', () => {
    const configuration = { parameters: { config: { jobs: [] }, iterations: [{ outputBucket: 'b' }, { outputBucket: 'b' }] } };
    assert.throws(() => planIterations({ component: 'c', record: record(configuration), force: false }, 2), /incrementalOutput/);
  });
});

describe('planRows', () => {
  const row = (id: string, isDisabled = false): ConfigurationRecord => ({ id, name: `R${id}`, configuration: {}, isDisabled });

  test('enabled rows in run order; native: one job with parallelism', () => {
    const r = record({}, [row('3'), row('1', true), row('2')]);
    assert.deepEqual(
      planRows({ component: 'c', record: r, force: false }, undefined).map((p) => [p.label, p.args.extra!['configRowIds']]),
      [
        ['row 3 "R3"', ['3']],
        ['row 2 "R2"', ['2']],
      ],
    );
    const native = planRows({ component: 'c', record: r, force: false, branch: '9' }, { parallelism: '2' });
    assert.deepEqual(native[0]!.args.extra, { parallelism: '2', branchId: '9' });
  });
});

describe('findPreviousStart', () => {
  test('the path of the first {"time": "previousStart"}, lists included', () => {
    const parameters = {
      config: { jobs: [{ params: { a: 1 } }, { params: { from: { function: 'date', args: ['Y-m-d', { time: 'previousStart' }] } } }] },
    };
    assert.equal(findPreviousStart(parameters, 'parameters'), 'parameters.config.jobs[1].params.from.args[1]');
    assert.equal(findPreviousStart({ config: { time: 'currentStart' } }, 'parameters'), undefined);
  });
});
