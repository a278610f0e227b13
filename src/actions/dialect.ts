/**
 * The helper's configuration dialect (spec 05 §2–§3): user parameters, the "fill" routine that
 * substitutes `{"attr": …}` and time references, expression evaluation (§8.2) and the job chain
 * of `__SELECTED_JOB`. This is the UI builder's reading of `parameters.config`, which differs
 * from the extractor's (02 §11): keys are not flattened, substituted values become Python
 * strings, and both time references give the current time (there is no state).
 */
import type { FunctionEnv } from '../functions/index.ts';
import { MIN_FREE_LENGTH } from '../logging/redact.ts';
import { PhpArray, type Value } from '../php/value.ts';
import { HelperError, keyError, PY, valueError } from './envelope.ts';
import { callHelperFunction } from './helperFunctions.ts';
import { pythonRepr, pythonStr, pythonTruthy } from './pythonValues.ts';

/**
 * An action's evaluation environment: the clock, and the values user functions computed from a
 * secret (an HMAC keyed with a `#` parameter, a hash of a token), masked in the answer like the
 * secret itself (secrets.ts; the reference masks only the parameters).
 */
export interface ActionEnv extends FunctionEnv {
  derivedSecrets: Set<string>;
}

/** Derived values shorter than this are not masked: a length or a flag is no credential (logging/redact.ts). */
const MIN_DERIVED_LENGTH = MIN_FREE_LENGTH;

/** The configuration every action reads (spec 05 §2.1), each key with what it means (docs/actions.md). */
export const DIALECT_INPUTS: Readonly<Record<string, string>> = {
  'parameters.config':
    'Must be an object. Its keys other than `jobs`, `userData`, `mappings`, `http`, `__AUTH_METHOD`, `#__BEARER_TOKEN` and `#password` are the user parameters that `{"attr": "name"}` reads (not flattened: `a.b` is a key of its own); an object value is evaluated as a function once, in key order.',
  'parameters.config.jobs':
    'The jobs; `endpoint`, `method` (`GET`, `POST`, `FORM`), `params`, `headers`, `dataField`, `placeholders`, `scroller` and `children` are read.',
  'parameters.config.__AUTH_METHOD':
    'The authentication method (else `api.authentication.type`); the UI keeps its credentials in `parameters.config` (see below).',
  'parameters.config.http.headers': 'Headers sent with every request, over `api.http.headers`, as a run sends them.',
  'parameters.api.baseUrl': 'Base URL (a string); a job endpoint is resolved against it with a `/` appended.',
  'parameters.api.http.headers': 'Headers sent with every request (the UI marks credentials with `{"attr": "#__AUTH_TOKEN"}`).',
  'parameters.api.http.defaultOptions.params': 'Query parameters sent with every GET request.',
  'parameters.api.http.maxRetries':
    "Retries of a failed request (default 10), after the helper's pauses (0, 0.6, 1.2, 2.4 … s, or `Retry-After`; a 413, 429 or 503 carrying it is retried too), none ending later than 25 s after the action started.",
  'parameters.api.http.codes': 'HTTP statuses retried (default 500, 502, 503, 504, 408, 420, 429).',
  'parameters.api.pagination': 'Only the first page is requested; see "Pagination" below.',
  'parameters.api.ssl_verify': '`false` turns certificate checks off (a warning in `debug_log`); prefer `caCertificate`.',
  'parameters.api.caCertificate': 'PEM certificate(s) trusted for the API.',
  'parameters.api.#clientCertificate': 'PEM client certificate and key for mutual TLS.',
  'parameters.api.credentialOrigins': 'Further origins credentials may be sent to (a redirect elsewhere goes without them).',
  'image_parameters.allowed_hosts': "When set, the top-level job's URL must match an entry (`scheme`, `host`, `port`, `path`).",
};

/** `parameters.config` keys that are not user parameters (§2.2; ` #username` is the reference's typo). */
const NOT_USER_PARAMETERS = new Set([
  '__AUTH_METHOD',
  '__NAME',
  '#__BEARER_TOKEN',
  'jobs',
  'outputBucket',
  'incrementalOutput',
  'http',
  'debug',
  'mappings',
  '#password',
  'userData',
  ' #username',
]);

/** The object member `key` of `v`, or an empty object. */
export function objectAt(v: Value | undefined, key: string): Map<string, Value> {
  const found = v instanceof Map ? v.get(key) : undefined;
  return found instanceof Map ? found : new PhpArray();
}

function isObject(v: Value | undefined): v is Map<string, Value> {
  return v instanceof Map;
}

function mapLike(v: Map<string, Value>, entries: Iterable<readonly [string, Value]>): Map<string, Value> {
  return new (v.constructor as new (e: Iterable<readonly [string, Value]>) => Map<string, Value>)(entries);
}

/** The single member of a one-key object, if it is `key` with a string value. */
function soleReference(v: Map<string, Value>, key: string): string | undefined {
  if (v.size !== 1) return undefined;
  const value = v.get(key);
  return typeof value === 'string' ? value : undefined;
}

/** §2.3 step 1: `{"time":"currentStart"}` and `{"time":"previousStart"}` → the current time. */
export function replaceTimeReferences(v: Value, env: FunctionEnv): Value {
  if (Array.isArray(v)) return v.map((e) => replaceTimeReferences(e, env));
  if (!isObject(v)) return v;
  const time = soleReference(v, 'time');
  if (time === 'currentStart' || time === 'previousStart') return Math.floor(env.nowMs() / 1000);
  return mapLike(
    v,
    [...v].map(([k, e]) => [k, replaceTimeReferences(e, env)] as const),
  ) as Value;
}

/** §8.2: a user-function expression against the user parameters. */
export function evaluateExpression(expression: Value, user: Map<string, Value>, env: ActionEnv): Value {
  return evaluateNode(replaceTimeReferences(expression, env), user, env);
}

function evaluateNode(e: Value, user: Map<string, Value>, env: ActionEnv): Value {
  if (!isObject(e)) return e;
  const attr = e.get('attr');
  if (pythonTruthy(attr)) {
    const name = typeof attr === 'string' ? attr : pythonStr(attr);
    if (!user.has(name)) throw keyError(name);
    return user.get(name)!;
  }
  if (!pythonTruthy(e.get('function'))) {
    return mapLike(
      e,
      [...e].map(([k, v]) => [k, evaluateNode(v, user, env)] as const),
    ) as Value;
  }
  const rawArgs = e.get('args');
  const args = Array.isArray(rawArgs) ? rawArgs.map((a) => (isObject(a) ? evaluateNode(a, user, env) : a)) : [];
  const result = callHelperFunction(e.get('function')!, args, env);
  if (typeof result === 'string' && result.length >= MIN_DERIVED_LENGTH && args.some((a) => holdsSecret(a, user, env))) {
    env.derivedSecrets.add(result);
  }
  return result;
}

/**
 * Whether an argument holds a secret: the value of a `#`/`__` user parameter (§5.3), or of an
 * earlier derived one. `fill` has already put the values in place of the `attr` references, so
 * the text itself is searched.
 */
function holdsSecret(v: Value, user: Map<string, Value>, env: ActionEnv): boolean {
  if (Array.isArray(v)) return v.some((x) => holdsSecret(x, user, env));
  if (isObject(v)) return [...v.values()].some((x) => holdsSecret(x, user, env));
  if (v === null || typeof v === 'boolean') return false;
  const text = pythonStr(v);
  const secrets = [...user].filter(([k]) => k.startsWith('#') || k.startsWith('__')).map(([, s]) => s);
  return [...secrets, ...env.derivedSecrets].some(
    (s) => typeof s === 'string' && s !== '' && (s.length >= MIN_DERIVED_LENGTH ? text.includes(s) : text === s),
  );
}

/**
 * §2.2: the user parameters, each object value evaluated in key order (a later one may refer to
 * an earlier one).
 */
export function userParameters(config: Value | undefined, env: ActionEnv): Map<string, Value> {
  const user = new Map<string, Value>();
  if (!isObject(config)) return user;
  for (const [key, raw] of config) {
    if (NOT_USER_PARAMETERS.has(key)) continue;
    const value = replaceTimeReferences(raw, env);
    user.set(key, isObject(value) ? evaluateExpression(value, user, env) : value);
  }
  return user;
}

/**
 * `"` + str(value) + `"` put into the JSON text and read back, as the helper does: a value with
 * a `"` or `\` breaks (or changes) the text.
 */
function substitutedString(value: Value, name: string): string {
  const raw = pythonStr(value);
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    throw new HelperError(
      'json.decoder.JSONDecodeError',
      `Expecting ',' delimiter: the value of user parameter ${pythonRepr(name)} contains a quote or backslash`,
    );
  }
}

function substituteAttributes(v: Value, user: Map<string, Value>): Value {
  if (Array.isArray(v)) return v.map((e) => substituteAttributes(e, user));
  if (!isObject(v)) return v;
  const name = soleReference(v, 'attr');
  if (name !== undefined && user.has(name)) return substitutedString(user.get(name)!, name);
  return mapLike(
    v,
    [...v].map(([k, e]) => [k, substituteAttributes(e, user)] as const),
  ) as Value;
}

function remainingAttributes(v: Value, found: Value[]): Value[] {
  if (Array.isArray(v)) for (const e of v) remainingAttributes(e, found);
  else if (isObject(v)) {
    if (v.has('attr')) found.push(v.get('attr')!);
    for (const e of v.values()) remainingAttributes(e, found);
  }
  return found;
}

/**
 * §2.3 "fill": time references, `attr` references (as Python strings), then, when asked, each
 * top-level object member evaluated as an expression.
 */
export function fill(fragment: Value | undefined, user: Map<string, Value>, env: ActionEnv, evaluateFunctions: boolean): Value {
  if (fragment === undefined || fragment === null) return new PhpArray();
  const substituted = substituteAttributes(replaceTimeReferences(fragment, env), user);
  const left = remainingAttributes(substituted, []);
  if (left.length > 0) {
    throw valueError(`Some user attributes [${pythonStr(left)}] specified in parameters are not present in "user_parameters" json_path.`);
  }
  if (!evaluateFunctions || !isObject(substituted)) return substituted;
  return mapLike(
    substituted,
    [...substituted].map(([k, e]) => [k, isObject(e) ? evaluateExpression(e, user, env) : e] as const),
  ) as Value;
}

/** §3.1: the job definitions from the top-level job down to the one `__SELECTED_JOB` names. */
export function selectedChain(jobs: Value | undefined, selected: Value | undefined): Map<string, Value>[] {
  if (!pythonTruthy(selected)) throw valueError('__SELECTED_JOB is missing!');
  const segments = pythonStr(selected).split('_');
  const indexes = segments.map((s) => {
    if (!/^\s*[+-]?\d+\s*$/.test(s)) throw valueError(`invalid literal for int() with base 10: ${pythonRepr(s)}`);
    return Number(s);
  });
  const top = Array.isArray(jobs) ? jobs : [];
  const first = indexes[0]!;
  if (first < 0 || first >= top.length) throw new HelperError(PY.index, 'list index out of range');
  const noJob = (): HelperError => valueError('Jobs section not found in the configuration, no endpoint specified');
  const chain: Map<string, Value>[] = [];
  let job = top[first];
  if (!isObject(job) || job.size === 0) throw noJob();
  chain.push(job);
  for (const index of indexes.slice(1)) {
    const children: Value | undefined = job.get('children');
    const child: Value | undefined = Array.isArray(children) && index >= 0 ? children[index] : undefined;
    if (!isObject(child) || child.size === 0) throw noJob();
    job = child;
    chain.push(job);
  }
  return chain;
}
