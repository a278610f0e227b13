/**
 * `load_from_curl` (spec 05 §7): `parameters.__CURL_COMMAND` → a job definition for the UI
 * builder. No request is sent. Form posts come out as method `"POST"` (not `"FORM"`): the
 * helper's defect, kept because the UI stores what the helper answers (§7.3 step 2).
 */
import { decodeJson } from '../php/jsonDecode.ts';
import type { JsonObject, Value } from '../php/value.ts';
import { parseCurlWords, parsePairs as parsePairsOf } from './curlCommand.ts';
import { shellWords } from './curlWords.ts';
import { userError, valueError } from './envelope.ts';
import { dict, pythonTruthy } from './pythonValues.ts';
import { registerSyncAction } from './registry.ts';

const URL_WITH_HOST = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\s]+/;

function stripSingleQuotes(word: string): string {
  return word.length >= 2 && word.startsWith("'") && word.endsWith("'") ? word.slice(1, -1) : word;
}

function asObject(pairs: Map<string, string | string[]>): JsonObject {
  return dict([...pairs].map(([k, v]) => [k, Array.isArray(v) ? [...v] : v] as const));
}

function jsonBody(text: string): Value {
  try {
    return decodeJson(text, 'response');
  } catch {
    throw userError(`Error parsing cURL: the body of the JSON request is not valid JSON: ${text}`);
  }
}

export function curlToJob(command: string, baseUrl: string): JsonObject {
  const words = shellWords(command.replace(/\\\r?\n/g, ' '));
  if (words[0] !== 'curl') throw valueError('Not a valid cURL command');
  const urlIndex = words.findIndex((w) => URL_WITH_HOST.test(stripSingleQuotes(w)));
  if (urlIndex < 0) throw valueError('No valid URL found in the cURL command');
  const found = stripSingleQuotes(words[urlIndex]!);
  let templateUrl: string | undefined;
  const args = words.slice(1);
  if (/[{}]/.test(found)) {
    // URL templates (`?since={since}`): braces become `_` for parsing, the path keeps them.
    templateUrl = found.split('?')[0]!;
    args[urlIndex - 1] = found.replace(/[{}]/g, '_');
  }
  const curl = parseCurlWords(args);
  const url = templateUrl ?? curl.url;
  const endpoint = baseUrl !== '' && url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
  const contentType = curl.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1].toLowerCase();
  let params: Value;
  if (curl.method === 'POST' && contentType === 'application/json') {
    if (curl.query.size > 0) throw userError('Query parameters are not supported for POST requests with JSON content type');
    params = curl.data === undefined ? dict() : jsonBody(curl.data);
  } else if (curl.method === 'POST' && contentType === 'application/x-www-form-urlencoded') {
    // A repeated form key keeps its last value where it first stood, as the helper answers (a query keeps a list).
    params =
      curl.data === undefined
        ? dict()
        : asObject(new Map([...parsePairsOf(curl.data)].map(([k, v]) => [k, Array.isArray(v) ? v.at(-1)! : v])));
  } else if (curl.method === 'GET') {
    params = asObject(curl.query);
  } else {
    throw userError(`Unsupported method ${curl.method}, only GET, POST with JSON and POST with form data are supported.`);
  }
  return dict([
    ['__NAME', endpoint],
    ['endpoint', endpoint],
    ['children', []],
    ['method', curl.method],
    ['dataType', endpoint.slice(endpoint.lastIndexOf('/') + 1)],
    [
      'dataField',
      dict([
        ['path', '.'],
        ['separator', '.'],
      ]),
    ],
    ['params', params],
    ['headers', dict(curl.headers)],
  ]);
}

registerSyncAction({
  name: 'load_from_curl',
  description:
    'Turns the curl command line in parameters.__CURL_COMMAND into a job (endpoint relative to api.baseUrl, method, params, headers). ' +
    'Supported: GET with query parameters, POST with a JSON body, POST with a form body.',
  inputs: {
    __CURL_COMMAND:
      'The curl command line (`curl …`, quoting and line continuations as in a shell). Understood: `-X`, `-H`, `-d`/`--data*`, `--json`, `-G`, `--url`; `-u`, `-k`, `--include` and `--compressed` are ignored.',
  },
  answer:
    'One job: `{"__NAME", "endpoint", "children": [], "method", "dataType", "dataField": {"path": ".", "separator": "."}, "params", "headers"}`. A form post is answered as method `POST`, as the reference does.',
  async run(ctx) {
    const command = ctx.configuration.own.get('__CURL_COMMAND');
    if (!pythonTruthy(command)) throw valueError('cURL command not provided');
    return curlToJob(typeof command === 'string' ? command : String(command), ctx.configuration.baseUrl);
  },
});
