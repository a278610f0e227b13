/** The platform client's command line (issue 27 point 6): --version, per-command help, our own messages, exit 1, did-you-mean. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { COMMANDS, parseCommandLine } from '../../src/platform/commandTable.ts';
import { runPlatformCli } from '../../src/platform/main.ts';

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runPlatformCli({ argv, env: {}, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const VERSION = (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string })
  .version;

describe('ex-generic-platform command line', () => {
  test('--version and -v print the package version', async () => {
    for (const flag of ['--version', '-v'])
      assert.deepEqual(await cli([flag]), { code: 0, stdout: `ex-generic-platform ${VERSION}\n`, stderr: '' });
  });

  test('every command has its own --help: usage line, its options, an example', async () => {
    for (const command of COMMANDS) {
      const o = await cli([...command.name.split(' '), '--help']);
      assert.equal(o.code, 0, command.name);
      assert.ok(o.stdout.startsWith(`usage: ex-generic-platform ${command.name}`), o.stdout);
      for (const option of command.options) assert.ok(o.stdout.includes(`--${option}`), `${command.name} --${option}`);
      assert.ok(o.stdout.includes(`Example: ex-generic-platform ${command.example}`));
    }
  });

  test('the general help lists every command', async () => {
    const o = await cli(['--help']);
    for (const command of COMMANDS) assert.ok(o.stdout.includes(`  ${command.name} `), command.name);
  });

  test('usage errors: one line of our own, exit 1, did-you-mean', async () => {
    const cases: [string[], string][] = [
      [['jbos'], 'ex-generic-platform: unknown command "jbos" (did you mean "jobs"?) (see ex-generic-platform --help)'],
      [['job', 'lgo', '12'], 'ex-generic-platform: unexpected argument "12" for "job" (see ex-generic-platform job --help)'],
      [
        ['config', 'pul'],
        'ex-generic-platform: "config" needs "pull" or "push" (did you mean "config pull"?) (see ex-generic-platform --help)',
      ],
      [['jobs', '--limt', '3'], 'ex-generic-platform: unknown option --limt (did you mean --limit?) (see ex-generic-platform jobs --help)'],
      [['services', '--stack'], 'ex-generic-platform: --stack needs a value (see ex-generic-platform services --help)'],
      // Our words for what node:util refuses, never its own ("argument is ambiguous. Did you forget …").
      [['services', '--stack', '--json'], 'ex-generic-platform: --stack needs a value (see ex-generic-platform services --help)'],
      [['jobs', '--json=yes'], 'ex-generic-platform: --json takes no value (see ex-generic-platform jobs --help)'],
      [['jobs', '--wait'], 'ex-generic-platform: --wait does not apply to "jobs" (see ex-generic-platform jobs --help)'],
      [
        [],
        'ex-generic-platform: a command is needed: one of stacks, services, apis, encrypt, config pull, config push, run, jobs, job, job log, job kill (see ex-generic-platform --help)',
      ],
      [['services'], 'ex-generic-platform: --stack is required (or set KBC_URL) (see ex-generic-platform services --help)'],
      // A negative number reaches our check, not the argument parser ("argument is ambiguous").
      [
        ['jobs', '--stack', 'https://connection.keboola.com', '--limit', '-1'],
        'ex-generic-platform: --limit needs a whole number of 1 or more, not "-1" (see ex-generic-platform jobs --help)',
      ],
    ];
    for (const [argv, message] of cases) assert.deepEqual(await cli(argv), { code: 1, stdout: '', stderr: `${message}\n` }, argv.join(' '));
  });

  test('a job id as the argument or --id, not both', () => {
    assert.equal(parseCommandLine(['job', 'log', '42']).argument, '42');
    assert.equal(parseCommandLine(['job', 'kill', '--id', '42']).values.id, '42');
    assert.equal(parseCommandLine(['job', '42', '--wait']).command?.name, 'job');
  });
});
