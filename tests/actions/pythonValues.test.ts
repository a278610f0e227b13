/**
 * The answer writer (`json.dumps` of the helper, spec 05 §1.5) on long strings: the bytes
 * Python prints, produced in chunks, with the time limit read between them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pythonJson, pythonJsonChunks } from '../../src/actions/pythonValues.ts';
import { dict } from '../../src/actions/pythonValues.ts';

/** Python's `ensure_ascii` output, built another way: JSON.stringify, then every non-printable unit escaped. */
function pythonDumpsOfString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

test('DEL (0x7f) is escaped as Python escapes it: \\u007f', () => {
  assert.equal(pythonJson('a\u007fb'), '"a\\u007fb"');
});

test('a long string with every kind of character gives the bytes Python gives, across slice boundaries', () => {
  // A surrogate pair and escapes straddle the 64 Ki-character slices of the writer.
  const unit = `${'x'.repeat(65_533)}😀"\\\n\u0001\u007fé/`;
  const text = unit.repeat(40);
  const answer = dict([
    ['data', dict([['text', text]])],
    ['records', [text]],
  ]);
  const expected = `{"data": {"text": ${pythonDumpsOfString(text)}}, "records": [${pythonDumpsOfString(text)}]}`;
  assert.equal(Buffer.concat(pythonJsonChunks(answer)).toString('latin1'), expected);
});

test('a long string is written in chunks, and the clock is read while it is encoded', () => {
  let checks = 0;
  const chunks = pythonJsonChunks('y'.repeat(4 << 20), { checkTime: () => checks++ });
  assert.ok(chunks.length >= 64, `${chunks.length} chunks`);
  assert.ok(checks >= 64, `${checks} clock reads`);
});

test('a clock that says the time is up stops the encoding with its error', () => {
  let checks = 0;
  const stop = new Error('time is up');
  assert.throws(
    () =>
      pythonJsonChunks(
        Array.from({ length: 5000 }, (_, i) => i),
        {
          checkTime: () => {
            if (++checks === 3) throw stop;
          },
        },
      ),
    stop,
  );
});
