/**
 * Differential check against a local PHP CLI (skipped when `php` is not installed):
 * random and mutated JSON texts are decoded by PHP and by us, in both modes, and compared on
 * the error code, `serialize()`, `json_encode()` (precision 17 and -1) and `var_export()`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { JsonDecodeError } from '../../src/errors/JsonDecodeError.ts';
import { phpSerialize } from '../../src/php/serialize.ts';
import { pjson } from '../../src/php/jsonEncode.ts';
import { varExport } from '../../src/php/varExport.ts';

const hasPhp = spawnSync('php', ['-r', 'echo 1;'], { encoding: 'utf8' }).stdout === '1';

const PHP_ERROR_NUMBERS: Record<string, number> = {
  depth: 1,
  'state-mismatch': 2,
  'ctrl-char': 3,
  syntax: 4,
  utf8: 5,
  'invalid-property-name': 9,
  utf16: 10,
};

function generateCases(seed: number, count: number): string[] {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;
  const strs = [
    '',
    'a',
    'ž',
    '😀',
    'a/b',
    'q\\"x',
    'b\\\\s',
    '\\u00e9',
    '\\ud83d\\ude00',
    '\\n\\t',
    '\\u0000',
    '0',
    '1',
    '-1',
    '05',
    'é€',
    '\u007f',
    '\\/',
  ];
  const nums = [
    '0',
    '-0',
    '1',
    '-1',
    '1.0',
    '0.1',
    '-0.0',
    '1e2',
    '1E+2',
    '2.5e-7',
    '1e20',
    '1e400',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '9007199254740993',
    '5e-324',
    '1e16',
    '1e17',
    '123456789.123456789',
  ];
  const gen = (d: number): string => {
    const r = rnd();
    if (d > 4 || r < 0.4) {
      const t = rnd();
      if (t < 0.2) return pick(nums);
      if (t < 0.3) {
        const x = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20);
        return rnd() < 0.5 ? String(x) : x.toPrecision(1 + Math.floor(rnd() * 20));
      }
      if (t < 0.35) return String(Math.floor((rnd() - 0.5) * 2 ** (1 + Math.floor(rnd() * 70))));
      if (t < 0.7) return '"' + pick(strs) + '"';
      return pick(['true', 'false', 'null']);
    }
    const n = Math.floor(rnd() * 4);
    if (r < 0.7) return '[' + Array.from({ length: n }, () => gen(d + 1)).join(pick([',', ', '])) + ']';
    return '{' + Array.from({ length: n }, () => '"' + pick(strs) + '"' + pick([':', ' : ']) + gen(d + 1)).join(',') + '}';
  };
  const junk = [
    '',
    ' ',
    ',',
    ']',
    '}',
    '[',
    '{',
    ':',
    '"',
    '\\',
    '\u0000',
    '\u0001',
    '\n',
    'x',
    '-',
    '.',
    'e',
    '0',
    '\u00a0',
    '\ufeff',
    '\\u',
    '\\ud800',
  ];
  const cases: string[] = [];
  for (let i = 0; i < count; i++) {
    const base = gen(0);
    if (i % 2 === 0) {
      cases.push(base);
      continue;
    }
    const p = Math.floor(rnd() * (base.length + 1));
    const op = rnd();
    if (op < 0.4) cases.push(base.slice(0, p) + pick(junk) + base.slice(p));
    else if (op < 0.7) cases.push(base.slice(0, p) + base.slice(p + 1));
    else cases.push(base.slice(0, p));
  }
  // Slicing can split a surrogate pair; real input always comes from UTF-8 bytes.
  return cases.filter((c) => Buffer.from(c, 'utf8').toString('utf8') === c);
}

const PHP_SCRIPT = `<?php
$out = [];
foreach (file($argv[1], FILE_IGNORE_NEW_LINES) as $line) {
  $c = base64_decode($line);
  $row = [];
  foreach ([false, true] as $assoc) {
    $v = json_decode($c, $assoc);
    $e = json_last_error();
    if ($e) { $row[] = "E$e"; continue; }
    ini_set('serialize_precision', '17');
    $s = serialize($v);
    $j17 = json_encode($v); if ($j17 === false) $j17 = 'FAIL';
    ini_set('serialize_precision', '-1');
    $js = json_encode($v); if ($js === false) $js = 'FAIL';
    $row[] = implode(' ', array_map('base64_encode', [$s, $j17, $js, var_export($v, true)]));
  }
  $out[] = implode("\\t", $row);
}
echo implode("\\n", $out), "\\n";
`;

test('decode/serialize/pjson/varExport agree with PHP', { skip: hasPhp ? false : 'php not installed' }, () => {
  const cases = generateCases(20240501, 3000);
  const dir = mkdtempSync(join(tmpdir(), 'json-diff-'));
  try {
    const casesFile = join(dir, 'cases.txt');
    const scriptFile = join(dir, 'diff.php');
    writeFileSync(casesFile, cases.map((c) => Buffer.from(c, 'utf8').toString('base64')).join('\n') + '\n');
    writeFileSync(scriptFile, PHP_SCRIPT);
    const run = spawnSync('php', [scriptFile, casesFile], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    assert.equal(run.status, 0, run.stderr);
    const php = run.stdout.trimEnd().split('\n');
    assert.equal(php.length, cases.length);
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
    const failures: string[] = [];
    cases.forEach((text, i) => {
      const want = php[i]!.split('\t');
      (['response', 'config'] as const).forEach((mode, k) => {
        let got: string;
        try {
          const v = decodeJson(text, mode);
          const enc = (floats: 'p17' | 'shortest') => {
            try {
              return pjson(v, floats);
            } catch {
              return 'FAIL';
            }
          };
          got = [phpSerialize(v), enc('p17'), enc('shortest'), varExport(v)].map(b64).join(' ');
        } catch (e) {
          if (!(e instanceof JsonDecodeError)) throw e;
          got = 'E' + PHP_ERROR_NUMBERS[e.code];
        }
        if (got !== want[k]) failures.push(`${mode} ${JSON.stringify(text)}`);
      });
    });
    assert.deepEqual(failures.slice(0, 10), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
