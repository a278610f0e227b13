/**
 * src/logging/stdoutWriter.ts: text written to fd 1 directly, in a real child process whose
 * stdout is a pipe read by this one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';

const MODULE = path.join(import.meta.dirname, '..', '..', 'src', 'logging', 'stdoutWriter.ts');

function childOutput(script: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

test('text larger than a pipe holds arrives whole and in order, multi-byte characters included, before the process exits', async () => {
  // 200 lines of ~10 KB: far beyond the pipe's 64 KiB, so writes wait for this reader.
  const script = `import { writeStdout } from ${JSON.stringify(MODULE)};
for (let i = 0; i < 200; i++) writeStdout(String(i).padStart(3, '0') + ' ' + 'é€'.repeat(2500) + '\\n');
process.exit(0);
`;
  const { code, stdout } = await childOutput(script);
  assert.equal(code, 0);
  const lines = stdout.split('\n');
  assert.equal(lines.pop(), '');
  assert.deepEqual(
    lines.map((l) => l.slice(0, 3)),
    Array.from({ length: 200 }, (_, i) => String(i).padStart(3, '0')),
  );
  for (const line of lines) assert.equal(line.slice(4), 'é€'.repeat(2500));
});
