/**
 * The run's state (spec 01 §1.5, 03 §6): `time.previousStart` / `currentStart` for functions,
 * the parser structure merged in after each configuration, written only on success.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
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

  static write(dataDir: string, text: string): void {
    fs.mkdirSync(path.join(dataDir, 'out'), { recursive: true });
    const file = path.join(dataDir, 'out', 'state.json');
    const tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  }
}
