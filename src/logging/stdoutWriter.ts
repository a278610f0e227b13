/**
 * The log's default sink: text written to file descriptor 1 with `fs.writeSync`, not through
 * `process.stdout`. Creating `process.stdout` builds a stream (for a pipe, as on the platform and
 * in the bench, a net.Socket over a pipe handle): part of the ~5 ms a one-request job lost to
 * stream creation (docs/performance.md, "Small jobs, round three"). Both are synchronous for
 * files and pipes on Linux, so lines keep their order and nothing is pending at exit.
 *
 * A descriptor the parent left non-blocking answers EAGAIN when the reader lags: any write that
 * fails hands its unwritten rest, and every later line, to `process.stdout`, which waits for the
 * reader (and reports EPIPE or EBADF as it always did).
 */
import fs from 'node:fs';

/** Set once a write failed: from then on all text goes through `process.stdout`, in order. */
let viaStream = false;

export function writeStdout(text: string): void {
  if (viaStream) {
    process.stdout.write(text);
    return;
  }
  let rest = Buffer.from(text, 'utf8');
  try {
    while (rest.length > 0) rest = rest.subarray(fs.writeSync(1, rest));
  } catch {
    viaStream = true;
    process.stdout.write(rest);
  }
}
