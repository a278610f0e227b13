/**
 * The run's state (spec 01 §1.5, 03 §6): `time.previousStart` / `currentStart` for functions,
 * the parser structure merged in after each configuration, written only on success.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { isEmpty, PhpArray, type Value } from '../php/value.ts';
import { replaceRecursive } from '../http/request.ts';

export class RunState {
  private readonly state: PhpArray;
  readonly currentStart: number;

  constructor(input: PhpArray, nowSeconds: number) {
    this.state = input;
    this.currentStart = nowSeconds;
    let time = this.state.get('time');
    if (!(time instanceof PhpArray)) {
      time = new PhpArray(Array.isArray(time) ? time.map((v, i) => [String(i), v] as const) : []);
      this.state.set('time', time);
    }
    const t = time as PhpArray;
    if (isEmpty(t.get('previousStart'))) t.set('previousStart', 0);
    t.set('currentStart', nowSeconds);
  }

  get input(): PhpArray {
    return this.state;
  }

  /** The `time` map that functions see as the `time` context. */
  timeValues(): PhpArray {
    return this.state.get('time') as PhpArray;
  }

  mergeParser(struct: Value, version: number): void {
    const update = new PhpArray([
      ['json_parser.struct', struct],
      ['json_parser.structVersion', version],
    ]);
    const merged = replaceRecursive(this.state, update) as PhpArray;
    this.state.clear();
    for (const [k, v] of merged) this.state.set(k, v);
  }

  /** The final state: previousStart := currentStart, currentStart removed. */
  finish(): PhpArray {
    const time = this.timeValues();
    time.set('previousStart', this.currentStart);
    time.delete('currentStart');
    return this.state;
  }

  /**
   * The bytes of out/state.json, computed before the tables are moved into place so that a state
   * that cannot be written fails the run without partial output. Only the input state can hold a
   * number JSON cannot represent (`1e400` in in/state.json decodes to INF).
   */
  static encode(state: PhpArray): string {
    const text = pjsonOrFalse(state, 'shortest');
    if (text === false)
      throw new UserError(
        "The state cannot be saved: in/state.json holds a number outside the range of a double (such as 1e400), which JSON cannot represent. Reset the configuration's state.",
        { configPath: 'in/state.json' },
      );
    return text;
  }

  /**
   * Puts out/state.json in place (written in full under a temporary name, then renamed) and
   * returns how to take it back: the run publishes the state first and the tables after it, and
   * a table move that fails must not leave the new state behind (a failed run writes no state).
   * A state that cannot be written (a full disk, `state.json` a directory) throws with nothing
   * published and no temporary file left.
   */
  static publish(dataDir: string, text: string): PublishedState {
    const out = path.join(dataDir, 'out');
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, 'state.json');
    const previous = readPrevious(file);
    const tmp = writeExclusive(out, 'state.json', text);
    try {
      fs.renameSync(tmp, file);
    } catch (error) {
      fs.rmSync(tmp, { force: true });
      throw new ApplicationError(`Writing ${file} failed: ${(error as Error).message}`);
    }
    return {
      takeBack: () => {
        if (previous === undefined) fs.rmSync(file, { force: true });
        else fs.renameSync(writeExclusive(out, 'state.json', previous), file);
      },
    };
  }
}

export interface PublishedState {
  /** Puts back what out/state.json was before (nothing, or the previous file's bytes). */
  takeBack(): void;
}

/** The bytes of an out/state.json already there (a run repeated in one data folder), if any. */
function readPrevious(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR')
      throw new ApplicationError(`Writing ${file} failed: it is a folder. Remove it; the state is written to that file.`);
    throw new ApplicationError(`Writing ${file} failed: ${(error as Error).message}`);
  }
}

/**
 * Writes `text` to a new file beside `name` in `dir` and returns its path. The file is created
 * exclusively (O_EXCL), which is what protects it: a file or a symlink planted under that name is
 * never opened (the random part only makes a collision unlikely; Math.random, because node:crypto
 * costs a tiny run 5–10 ms to load), so nothing outside `out/` can be overwritten through it. The
 * caller renames it into place, so a run that dies never leaves half a state. A failed write
 * removes the file.
 *
 * Not flushed to disk (no fsync): only a crash of the machine itself could lose the bytes, and then
 * the job has failed, and the platform keeps the state of successful runs only (spec 01 §1.3) —
 * the next run reads in/state.json, never this file. The flush cost every run 2–7 ms on the
 * development machine's disk (a one-request job takes ~80 ms; issue 28), more on network disks.
 */
function writeExclusive(dir: string, name: string, text: string | Buffer): string {
  const tmp = path.join(dir, `.${name}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 12)}`);
  let fd: number;
  try {
    fd = fs.openSync(tmp, 'wx');
  } catch (error) {
    throw new ApplicationError(`Writing ${path.join(dir, name)} failed: ${(error as Error).message}`);
  }
  try {
    fs.writeFileSync(fd, text);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw new ApplicationError(`Writing ${path.join(dir, name)} failed: ${(error as Error).message}`);
  }
  fs.closeSync(fd);
  return tmp;
}
