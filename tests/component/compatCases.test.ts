/**
 * Issue 22: every case of the differential comparison with the reference (compat-cases/, its README
 * explains the format), served from a real local server and run through the component — once with the
 * output phase in the run and once on the output worker (the second implementation of the output).
 *
 * - reference exit 0: tables, manifests, state.json and the requests byte for byte as the reference;
 * - reference exit 1: exit 1, the reference's message inside our ERROR line, nothing written;
 * - reference exit 2 (a crash we do not copy): the case folder holds `ours/` — the output we write
 *   instead, checked by hand and listed on docs/migration.md as a deliberate difference.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CASES, caseNames, runCase } from '../helpers/compatCase.ts';

const NOT_TABLES = new Set(['exit-code.txt', 'log.txt', 'requests.txt', 'request-headers.txt', 'state.json', 'notes.md']);

function expectedFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => !NOT_TABLES.has(f))
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'latin1')]),
  );
}

/** The message of the reference's ERROR line: `logger.ERROR: <message> [] []`. */
function referenceError(log: string): string {
  const line = log.split('\n').find((l) => l.includes('logger.ERROR: '));
  assert.ok(line, 'the reference logged an error');
  return line.slice(line.indexOf('logger.ERROR: ') + 'logger.ERROR: '.length).replace(/ \[\] \[\]$/, '');
}

function lines(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

for (const mode of ['off', 'always'] as const) {
  describe(`compat cases (output worker ${mode})`, () => {
    for (const name of caseNames()) {
      it(name, async () => {
        const caseDir = path.join(CASES, name);
        const oursDir = path.join(caseDir, 'ours');
        const expectedDir = fs.existsSync(oursDir) ? oursDir : path.join(caseDir, 'expected');
        const refDir = path.join(caseDir, 'expected');
        const exit = Number(fs.readFileSync(path.join(expectedDir, 'exit-code.txt'), 'utf8').trim());
        const stateFile = path.join(expectedDir, 'state.json');
        const expectedState = fs.existsSync(stateFile) ? fs.readFileSync(stateFile, 'latin1') : undefined;
        const previousStart = Number(/"previousStart":(\d+)/.exec(expectedState ?? '')?.[1] ?? 0);
        const run = await runCase(name, { previousStart, outputWorker: mode });
        const log = run.lines.join('\n');

        assert.deepEqual(run.requests, lines(path.join(refDir, 'requests.txt')), 'the requests the reference sent');
        if (fs.existsSync(path.join(refDir, 'request-headers.txt')))
          assert.deepEqual(run.requestHeaders, lines(path.join(refDir, 'request-headers.txt')), 'header bytes as the reference sent them');

        if (exit === 1) {
          assert.equal(run.code, 1, log);
          const message = referenceError(fs.readFileSync(path.join(refDir, 'log.txt'), 'utf8'));
          const error = run.lines.find((l) => l.includes('logger.ERROR: '));
          assert.ok(error?.includes(message), `the reference's message ${message}\nin ${error}`);
          assert.deepEqual(run.tables, {}, 'a failed run writes no table');
          assert.equal(run.state, undefined, 'a failed run writes no state');
          return;
        }
        assert.equal(exit, 0, `${name}: the reference crashed (exit ${exit}); our output belongs in ours/`);
        assert.equal(run.code, 0, log);
        assert.deepEqual(run.tables, expectedFiles(expectedDir));
        assert.equal(run.state, expectedState);
      });
    }
  });
}
