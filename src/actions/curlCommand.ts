/**
 * A curl command line read the way the helper's `curlconverter` reads it (spec 05 §7.2 step 4):
 * URL without its query, method implied by the options, headers, query parameters and body.
 * Covers the options the spec lists (-X, -H, -d/--data*, --json, -G, --url, -u, -b, -A, -e,
 * -F, -I) plus the usual flags without effect on the request (-i, -s, -L, -k, --compressed…).
 * Other options that take an argument are skipped with it; unknown flags are ignored.
 */
import { userError } from './envelope.ts';

export interface ParsedCurl {
  /** The URL without query string, one trailing `/` removed. */
  url: string;
  /** Upper case: GET, POST, PUT, … */
  method: string;
  headers: [string, string][];
  query: Map<string, string | string[]>;
  /** Body text (`-d` parts joined with `&`), undefined when none. */
  data: string | undefined;
}

/** Options taking an argument that the helper ignores (`-u` credentials included, §7.2). */
const IGNORED_WITH_ARGUMENT = new Set([
  '-u',
  '--user',
  '-o',
  '--output',
  '-m',
  '--max-time',
  '--connect-timeout',
  '-w',
  '--write-out',
  '--retry',
  '-x',
  '--proxy',
  '--cacert',
  '--capath',
  '--cert',
  '-E',
  '--key',
  '-T',
  '--upload-file',
  '-r',
  '--range',
  '-c',
  '--cookie-jar',
  '--resolve',
  '-D',
  '--dump-header',
  '-K',
  '--config',
  '--max-redirs',
  '--retry-delay',
  '--retry-max-time',
  '-y',
  '-Y',
  '-z',
  '--limit-rate',
  '--interface',
  '--proxy-user',
  '-U',
  '--cert-type',
  '--key-type',
  '--pass',
  '--ciphers',
  '--oauth2-bearer',
  '--aws-sigv4',
]);

const DATA = new Map([
  ['-d', 'data'],
  ['--data', 'data'],
  ['--data-ascii', 'data'],
  ['--data-binary', 'raw'],
  ['--data-raw', 'raw'],
  ['--data-urlencode', 'urlencode'],
  ['--json', 'json'],
]);

const WITH_ARGUMENT = new Set([
  '-X',
  '--request',
  '-H',
  '--header',
  '--url',
  '-b',
  '--cookie',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '-F',
  '--form',
  '--form-string',
  ...DATA.keys(),
  ...IGNORED_WITH_ARGUMENT,
]);
/** Short options that take an argument (`-XPOST` is `-X POST`). */
const SHORT_WITH_ARGUMENT = new Set([...WITH_ARGUMENT].filter((o) => /^-[A-Za-z]$/.test(o)).map((o) => o[1]!));

function setHeader(headers: [string, string][], name: string, value: string): void {
  const i = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
  if (i >= 0) headers[i] = [name, value];
  else headers.push([name, value]);
}

function urlencodePart(arg: string): string {
  const eq = arg.indexOf('=');
  const encode = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  if (eq < 0) return encode(arg);
  return eq === 0 ? encode(arg.slice(1)) : `${arg.slice(0, eq)}=${encode(arg.slice(eq + 1))}`;
}

/** `a=1&b=2&a=3` → ordered map, repeated keys as lists, `+` as space. */
export function parsePairs(text: string): Map<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const decode = (s: string): string => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    const seen = out.get(key);
    if (seen === undefined) out.set(key, value);
    else out.set(key, Array.isArray(seen) ? [...seen, value] : [seen, value]);
  }
  return out;
}

/** Words after `curl` → the request they describe. */
export function parseCurlWords(words: readonly string[]): ParsedCurl {
  const headers: [string, string][] = [];
  const data: string[] = [];
  let method: string | undefined;
  let url: string | undefined;
  let get = false;
  let json = false;
  let form = false;
  let head = false;
  const option = (name: string, value: string): void => {
    if (name === '-X' || name === '--request') method = value.toUpperCase();
    else if (name === '-H' || name === '--header') {
      const colon = value.indexOf(':');
      if (colon > 0 && value.slice(colon + 1).trim() !== '')
        setHeader(headers, value.slice(0, colon).trim(), value.slice(colon + 1).trim());
      else if (value.endsWith(';')) setHeader(headers, value.slice(0, -1).trim(), '');
    } else if (name === '--url') url ??= value;
    else if (name === '-b' || name === '--cookie') setHeader(headers, 'Cookie', value);
    else if (name === '-A' || name === '--user-agent') setHeader(headers, 'User-Agent', value);
    else if (name === '-e' || name === '--referer') setHeader(headers, 'Referer', value);
    else if (name === '-F' || name === '--form' || name === '--form-string') form = true;
    else if (DATA.has(name)) {
      const kind = DATA.get(name);
      if (kind === 'json') json = true;
      data.push(kind === 'urlencode' ? urlencodePart(value) : value);
    }
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('--') && w.length > 2) {
      if (w === '--get') get = true;
      else if (w === '--head') head = true;
      else if (WITH_ARGUMENT.has(w)) {
        if (i + 1 >= words.length) throw userError(`Error parsing cURL: option ${w}: requires parameter`);
        option(w, words[++i]!);
      }
    } else if (w.startsWith('-') && w.length > 1) {
      // A cluster of short flags (`-sSL`); an option taking an argument ends it (`-XPOST`, `-H 'a: b'`).
      for (let j = 1; j < w.length; j++) {
        const letter = w[j]!;
        if (SHORT_WITH_ARGUMENT.has(letter)) {
          const rest = w.slice(j + 1);
          if (rest === '' && i + 1 >= words.length) throw userError(`Error parsing cURL: option -${letter}: requires parameter`);
          option(`-${letter}`, rest !== '' ? rest : words[++i]!);
          break;
        }
        if (letter === 'G') get = true;
        if (letter === 'I') head = true;
      }
    } else url ??= w;
  }
  if (url === undefined) throw userError('Error parsing cURL: no URL specified!');
  const q = url.indexOf('?');
  let base = q < 0 ? url : url.slice(0, q);
  let queryText = q < 0 ? '' : url.slice(q + 1);
  const body = data.length > 0 ? data.join('&') : undefined;
  if (json) {
    if (!headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/json']);
    if (!headers.some(([n]) => n.toLowerCase() === 'accept')) headers.push(['Accept', 'application/json']);
  }
  let implied = 'GET';
  if (get && body !== undefined) queryText = queryText === '' ? body : `${queryText}&${body}`;
  else if (body !== undefined || form) {
    implied = 'POST';
    if (body !== undefined && !headers.some(([n]) => n.toLowerCase() === 'content-type')) {
      headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    }
  }
  if (head) implied = 'HEAD';
  if (base.endsWith('/') && !/^[a-z][a-z0-9+.-]*:\/\/[^/]*\/$/i.test(base)) base = base.slice(0, -1);
  return {
    url: base,
    method: method ?? implied,
    headers,
    query: parsePairs(queryText),
    data: get ? undefined : body,
  };
}
