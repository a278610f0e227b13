/**
 * Loading API simulations for the replay mock server (the format of keboola/ex-generic-mock-server,
 * described in conformance/README.md, "The mock server").
 *
 * A sample is a `NAME.request` file plus optional side files next to it, with exactly these
 * (case-sensitive) suffixes: `.response`, `.requestHeaders`, `.responseHeaders`, `.responseCode`.
 * All files are read once, here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SimulationError } from '../errors/SimulationError.ts';
import { phpIntval } from '../php/intval.ts';

/** One `Name: value` line of a `.requestHeaders` / `.responseHeaders` file (latin1 = raw bytes). */
export interface HeaderLine {
  name: string;
  value: string;
}

export interface Sample {
  /** Path of the sample relative to its folder, without `.request` (`001-simple-job/users`). */
  name: string;
  /** Absolute path of the `.request` file. */
  file: string;
  /** The `.request` file content, exactly as stored (compared with the trimmed request text). */
  request: Buffer;
  /** The `.requestHeaders` file bytes (empty if there is none). */
  requestHeadersText: Buffer;
  /** Required request headers (names as written, values trimmed); empty if none. */
  requestHeaders: HeaderLine[];
  /** The `.response` file bytes (empty if there is no such file). */
  response: Buffer;
  /**
   * Status from `.responseCode` (PHP `(int)` of the text; default 200 when the file is missing,
   * empty or "0"). Outside 100..599 the server answers 500, as Symfony's Response refuses it.
   */
  responseCode: number;
  /** Lines of `.responseHeaders`, or `null` when there is no such file (or it is empty or "0"). */
  responseHeaders: HeaderLine[] | null;
}

export interface LoadOptions {
  /**
   * `false` (default, upstream rule): samples are the `*.request` files in sub-folders of the
   * folder, at any depth, but not directly in it. `true`: the folder's own `*.request` files count too.
   */
  flat?: boolean;
}

const PHP_TRIM_BYTES = new Set([0x20, 0x09, 0x0a, 0x0d, 0x00, 0x0b]);

/** PHP `trim()` on raw bytes: strips " \t\n\r\0\x0B" from both ends. */
export function phpTrimBytes(buf: Buffer): Buffer {
  let start = 0;
  let end = buf.length;
  while (start < end && PHP_TRIM_BYTES.has(buf[start]!)) start++;
  while (end > start && PHP_TRIM_BYTES.has(buf[end - 1]!)) end--;
  return buf.subarray(start, end);
}

/** PHP `trim()` on a string (characters " \t\n\r\0\x0B"). */
export function phpTrim(s: string): string {
  return s.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
}

/** PHP truthiness of a file's content: "" and "0" count as no file. */
function phpTruthy(buf: Buffer | null): buf is Buffer {
  return buf !== null && buf.length > 0 && !(buf.length === 1 && buf[0] === 0x30);
}

/**
 * Parses `Name: value` lines as upstream does: split on "\n", name before the first ":", both
 * PHP-trimmed (so CRLF files work); lines without a colon or with an empty name are skipped.
 */
export function parseHeaderLines(text: string): HeaderLine[] {
  const out: HeaderLine[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = phpTrim(line.slice(0, colon));
    if (name === '') continue;
    out.push({ name, value: phpTrim(line.slice(colon + 1)) });
  }
  return out;
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Relative paths (with `/`) of every `*.request` file below `root`, dot files and dot folders skipped. */
function findRequestFiles(root: string, flat: boolean): string[] {
  const found: string[] = [];
  const walk = (rel: string, depth: number): void => {
    const abs = rel === '' ? root : path.join(root, rel);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch (err) {
      throw new SimulationError(`cannot read simulation folder ${abs}: ${(err as Error).message}`);
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // Symlinked files count; symlinked folders are not followed (no cycles).
        try {
          isFile = fs.statSync(path.join(abs, entry.name)).isFile();
        } catch {
          isFile = false;
        }
        isDir = false;
      }
      if (isDir) walk(childRel, depth + 1);
      else if (isFile && entry.name.endsWith('.request') && (depth > 0 || flat)) found.push(childRel);
    }
  };
  walk('', 0);
  return found.sort(compareBytes);
}

/** Exact-case names present in each folder (so `users.responsecode` never stands in for `.responseCode`). */
function listingOf(cache: Map<string, Set<string>>, dir: string): Set<string> {
  let names = cache.get(dir);
  if (names === undefined) {
    names = new Set(fs.readdirSync(dir));
    cache.set(dir, names);
  }
  return names;
}

function loadOne(root: string, rel: string, listings: Map<string, Set<string>>): Sample {
  const file = path.join(root, rel);
  const dir = path.dirname(file);
  const base = path.basename(file).slice(0, -'.request'.length);
  const names = listingOf(listings, dir);
  const side = (suffix: string): Buffer | null => {
    const n = base + suffix;
    return names.has(n) ? fs.readFileSync(path.join(dir, n)) : null;
  };
  const requestHeaders = side('.requestHeaders');
  const response = side('.response');
  const responseCode = side('.responseCode');
  const responseHeaders = side('.responseHeaders');
  return {
    name: rel.slice(0, -'.request'.length),
    file,
    request: fs.readFileSync(file),
    requestHeadersText: requestHeaders ?? Buffer.alloc(0),
    requestHeaders: phpTruthy(requestHeaders) ? parseHeaderLines(requestHeaders.toString('latin1')) : [],
    response: response ?? Buffer.alloc(0),
    responseCode: phpTruthy(responseCode) ? phpIntval(responseCode.toString('latin1')) : 200,
    responseHeaders: phpTruthy(responseHeaders) ? parseHeaderLines(responseHeaders.toString('latin1')) : null,
  };
}

/** Upstream's sample id: the folder path with "/" turned into "-", then "-", then the base name. */
function sampleId(name: string): string {
  return name.replaceAll('/', '-');
}

/**
 * Loads every sample of the given folder(s): folders in the order given, the samples of each in
 * byte order of their relative paths. Throws `SimulationError` if two samples have the same
 * `.request` bytes and the same `.requestHeaders` bytes (upstream would answer 500 to everything).
 */
export function loadSimulations(dir: string | readonly string[], options: LoadOptions = {}): Sample[] {
  const dirs = typeof dir === 'string' ? [dir] : [...dir];
  if (dirs.length === 0) throw new SimulationError('no simulation folder given');
  const samples: Sample[] = [];
  const listings = new Map<string, Set<string>>();
  const ids = new Map<Sample, string>();
  for (const [index, d] of dirs.entries()) {
    const root = path.resolve(d);
    let st: fs.Stats;
    try {
      st = fs.statSync(root);
    } catch {
      throw new SimulationError(`simulation folder ${d} does not exist`);
    }
    if (!st.isDirectory()) throw new SimulationError(`${d} is not a folder`);
    for (const rel of findRequestFiles(root, options.flat === true)) {
      const sample = loadOne(root, rel, listings);
      ids.set(sample, `${index}:${sampleId(sample.name)}`);
      samples.push(sample);
    }
  }
  // Identical request and identical `.requestHeaders` text: upstream answers 500 to everything.
  const seen = new Map<string, Sample>();
  const dupes: string[] = [];
  for (const s of samples) {
    const key = JSON.stringify([s.request.toString('latin1'), s.requestHeadersText.toString('latin1')]);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, s);
    else dupes.push(`${first.file} and ${s.file}`);
  }
  if (dupes.length > 0) {
    throw new SimulationError(
      `duplicate samples (same request and same request headers): ${dupes.slice(0, 5).join('; ')}` +
        (dupes.length > 5 ? ` (+${dupes.length - 5} more)` : ''),
    );
  }
  // Upstream keeps samples in a PHP array keyed by id ("a/b-c" and "a-b/c" are both "a-b-c"):
  // a later sample with the same id replaces the earlier one in the earlier one's position
  // (within one folder; folders given together never replace each other's samples).
  const byId = new Map<string, Sample>();
  for (const s of samples) byId.set(ids.get(s)!, s);
  return [...byId.values()];
}
