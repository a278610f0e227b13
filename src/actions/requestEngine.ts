/**
 * The request engine of `test_request` and `infer_mapping` (spec 05 §4): the `__SELECTED_JOB`
 * chain run depth-first, one request per job instance (first page only, at most 20 parents
 * expanded per level), with the helper's headers, query, body and URL rules. Requests go through
 * the extractor's HTTP client (helperHttp.ts).
 */
import { credentialScope } from '../config/credentialOrigins.ts';
import { CurlError } from '../errors/CurlError.ts';
import { TooManyRedirects } from '../http/client.ts';
import { resolveUrl } from '../http/url.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import { PhpArray, type Value } from '../php/value.ts';
import type { ActionContext } from './context.ts';
import { fill, objectAt, selectedChain } from './dialect.ts';
import { HelperError, PY, userError, valueError } from './envelope.ts';
import { addFirstPageParameters } from './firstPage.ts';
import { checkAllowedHosts } from './helperAllowedHosts.ts';
import { type BuiltRequest, formEncode, HelperHttp, type HelperResponse, newRequest, setBody } from './helperHttp.ts';
import { dict, pythonJson, pythonStr } from './pythonValues.ts';
import { placeholderValues, selectRecords } from './records.ts';
import { secretsOf } from './secrets.ts';

/** The reference's MAX_CHILD_CALLS. */
const MAX_CHILD_CALLS = 20;

export interface ChainResult {
  chain: Map<string, Value>[];
  records: Value[];
  /** The reported response (§4.5 step 7): the last one received. */
  response: HelperResponse | undefined;
  /** The HTTP error message when the chain stopped at an error status (§4.7). */
  httpError: string | undefined;
  /** The reported response's body decoded, when it was (decoding a long body once, not twice). */
  body?: Value;
}

/** Thrown inside the chain at the first HTTP error status; the chain's results are kept. */
class ChainStopped extends Error {}

/** §4.2 step 2: authentication entries removed from default headers or query parameters. */
function withoutAuthEntries(entries: Map<string, Value>, ctx: ActionContext): Map<string, Value> {
  const reserved = ctx.configuration.reservedNames;
  const out = new PhpArray();
  for (const [name, value] of entries) {
    // Under bearer an object-valued Authorization is the UI's placeholder for the token. (The
    // reference crashes on object values under other names; we keep them: undetermined, §4.2.)
    const placeholders = ctx.auth.dropsAuthorizationPlaceholder === true;
    if (placeholders && value instanceof Map && name === 'Authorization') continue;
    if (!placeholders && typeof value === 'string' && reserved.has(value)) continue;
    out.set(name, value);
  }
  return out;
}

function methodOf(job: Map<string, Value>): 'GET' | 'POST' | 'FORM' {
  const m = job.get('method') ?? 'GET';
  if (m === 'GET' || m === 'POST' || m === 'FORM') return m;
  throw valueError(`Unsupported method: ${pythonStr(m)}`);
}

/** §4.2 steps 1–5: the filled headers and query parameters of one job's request. */
function headersAndQuery(ctx: ActionContext, job: Map<string, Value>, method: 'GET' | 'POST' | 'FORM') {
  const headerConfig = withoutAuthEntries(ctx.configuration.defaultHeaders, ctx);
  for (const [k, v] of objectAt(job, 'headers')) headerConfig.set(k, v);
  const headers = fill(headerConfig, ctx.user, ctx.env, true) as Map<string, Value>;
  const query = withoutAuthEntries(ctx.configuration.defaultParams, ctx);
  const params = job.get('params');
  if (method === 'GET' && params instanceof Map) for (const [k, v] of params) query.set(k, v);
  const filledQuery = new PhpArray(fill(query, ctx.user, ctx.env, true) as Map<string, Value>);
  addFirstPageParameters(ctx, filledQuery, job);
  return { headers, query: filledQuery };
}

/** §4.2 step 7: the endpoint resolved against the base URL with a `/` appended, then the query. */
function requestUrl(baseUrl: string, endpoint: string, query: Map<string, Value>): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:/;
  let url = absolute.test(base)
    ? keepExplicitPort(resolveUrl(base, endpoint).href, absolute.test(endpoint) ? endpoint : base)
    : base + endpoint;
  const encoded = formEncode(query);
  if (encoded !== '') url += `${url.includes('?') ? '&' : '?'}${encoded}`;
  return url;
}

/** One job's request (§4.2); authentication is applied by the client, last, before every attempt. */
export function buildRequest(ctx: ActionContext, job: Map<string, Value>, endpoint: string): BuiltRequest {
  const method = methodOf(job);
  const { headers, query } = headersAndQuery(ctx, job, method);
  const built = newRequest(method === 'GET' ? 'GET' : 'POST', requestUrl(ctx.configuration.baseUrl, endpoint, query));
  for (const [name, value] of headers) built.prepared.headers.replace(name, [pythonStr(value)]);
  if (method !== 'GET') {
    // POST and FORM bodies are sent as configured, not filled (§3.2).
    const params = job.get('params');
    const body = params instanceof Map ? params : dict();
    if (method === 'POST') setBody(built.prepared, pythonJson(body), 'application/json');
    else setBody(built.prepared, formEncode(body), 'application/x-www-form-urlencoded');
  }
  return built;
}

/**
 * `http://host:80/…` keeps its `:80` in the URL `requests` reports (the resolver drops a
 * default port; the Host header has none either way).
 */
function keepExplicitPort(href: string, source: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#:]+):(\d+)/.exec(source);
  if (!m || /^[^:]+:\/\/[^/?#]*:\d+/.test(href) || !href.toLowerCase().startsWith(m[1]!.toLowerCase())) return href;
  return `${href.slice(0, m[1]!.length)}:${m[2]}${href.slice(m[1]!.length)}`;
}

/** §4.1–§4.5: runs the selected chain. */
export async function runChain(ctx: ActionContext): Promise<ChainResult> {
  const { configuration } = ctx;
  const chain = selectedChain(configuration.jobs, configuration.selectedJob);
  checkAllowedHosts(configuration.allowedHosts, configuration.baseUrl, chain[0]!);
  const scope = credentialScope(configuration.api, configuration.baseUrl, undefined, configuration.jobs);
  const http = new HelperHttp(ctx, { scope, secrets: () => secretsOf(ctx) });
  ctx.cleanup.push(() => http.close());
  await ctx.auth.login?.(configuration.baseUrl, (request) => http.login(request));
  const result: ChainResult = { chain, records: [], response: undefined, httpError: undefined };
  const slots: Value[] = chain.map(() => dict());

  const run = async (position: number, parent: Value | undefined, inherited: Map<string, Value>): Promise<void> => {
    const job = chain[position]!;
    if (position > 0 && parent !== undefined && pythonTruthyRecord(parent)) slots[position - 1] = parent;
    const values = new Map([...inherited, ...placeholderValues(job.get('placeholders'), slots)]);
    let endpoint = pythonStr(job.get('endpoint') ?? '');
    for (const [name, value] of values) endpoint = endpoint.split(`{${name}}`).join(pythonStr(value));
    const built = buildRequest(ctx, job, endpoint);
    const request = built.prepared;
    let response: HelperResponse;
    try {
      response = await http.send(built);
    } catch (error) {
      if (error instanceof CurlError) {
        throw userError(`Request "${request.method}: ${endpoint}" failed with the following error: ${error.detail}`);
      }
      // `requests`' TooManyRedirects is one of its request errors: reported as the network failures are.
      if (error instanceof TooManyRedirects) {
        throw userError(`Request "${request.method}: ${endpoint}" failed with the following error: Exceeded ${error.limit} redirects.`);
      }
      throw error;
    }
    result.response = response;
    delete result.body;
    if (response.status >= 400) {
      const kind = configuration.retry.codes.includes(response.status) ? 'failed, too many retries' : 'failed with non-retryable error';
      result.httpError = `Request "${request.method}: ${endpoint}" ${kind}. Status Code: ${response.status}. Response: ${response.text}`;
      throw new ChainStopped();
    }
    let body: Value;
    try {
      body = decodeJson(response.text, 'response');
    } catch {
      throw new HelperError(PY.jsonDecode, pythonJsonError(response.text));
    }
    result.body = body;
    const selected = selectRecords(body, job.get('dataField'));
    if (position === chain.length - 1) {
      if (Array.isArray(selected)) result.records.push(...selected);
      else result.records.push(selected);
      return;
    }
    const parents = Array.isArray(selected) ? selected.slice(0, MAX_CHILD_CALLS) : [selected];
    for (const record of parents) await run(position + 1, record, values);
  };
  try {
    await run(0, undefined, new Map());
  } catch (error) {
    if (!(error instanceof ChainStopped)) throw error;
  }
  return result;
}

/** An empty or falsy parent record does not replace the slot (§4.5 step 4). */
function pythonTruthyRecord(v: Value): boolean {
  if (v === null || v === false || v === 0 || v === '') return false;
  if (v instanceof Map) return v.size > 0;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/**
 * Python's `json.loads` message for a body that is not JSON, where it is cheap to reproduce: a
 * body whose first non-blank character starts no JSON value (text, HTML, an empty body) gives
 * `Expecting value: line L column C (char N)` at that character; other malformed JSON keeps a
 * generic text.
 */
function pythonJsonError(text: string): string {
  const at = /^[ \t\n\r]*/.exec(text)![0].length;
  if (at < text.length && /[{["\-0-9tfnNI]/.test(text[at]!)) return 'Expecting value: the response is not JSON';
  const before = text.slice(0, at);
  const newline = before.lastIndexOf('\n');
  const char = [...before].length;
  const line = before.split('\n').length;
  const column = newline < 0 ? char + 1 : [...before.slice(newline + 1)].length + 1;
  return `Expecting value: line ${line} column ${column} (char ${char})`;
}
