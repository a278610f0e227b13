/**
 * The helper's configuration dialect (spec 05 §2.1) parsed once, at the edge, into what the
 * actions read: from here on no action looks a key up in config.json. Values stay as written
 * where the helper interprets them lazily (user parameters are evaluated, jobs are walked, auth
 * is built), so its errors keep their order: the structural checks below, then user parameters
 * and authentication (context.ts), then each action's own keys.
 */
import { PhpFloat, type Value } from '../php/value.ts';
import { objectAt } from './dialect.ts';
import { HelperError, PY } from './envelope.ts';
import { pythonTruthy, pythonTypeName } from './pythonValues.ts';

/** The helper's retry statuses when `api.http.codes` is not a list (spec 05 §4.3). */
const DEFAULT_RETRY_CODES: readonly number[] = [500, 502, 503, 504, 408, 420, 429];

export interface HelperConfiguration {
  /** `parameters.config` as written: user parameters, jobs, `userData`, the UI's credentials. */
  config: Map<string, Value>;
  /** `parameters.api` as written (the auth methods and the credential scope read it whole). */
  api: Map<string, Value>;
  /** `api.baseUrl`, `""` when absent. */
  baseUrl: string;
  /** `parameters.__SELECTED_JOB`, as written (checked when a request action needs it). */
  selectedJob: Value | undefined;
  /** `config.jobs`, as written. */
  jobs: Value | undefined;
  /** `config.userData`, unfilled. */
  userData: Map<string, Value>;
  /** `api.http.headers` then `config.http.headers` (the run sends both; the helper, the first only). */
  defaultHeaders: Map<string, Value>;
  /** `api.http.defaultOptions.params`. */
  defaultParams: Map<string, Value>;
  /** `api.http.maxRetries` (default 10) and `api.http.codes`. */
  retry: { maxRetries: number; codes: readonly Value[] };
  /** `api.pagination`. */
  pagination: Map<string, Value>;
  /** `api.caCertificate` / `api.#clientCertificate` (non-blank PEM text) and `api.ssl_verify` read by truthiness. */
  tls: { ca: string | undefined; clientCertificate: string | undefined; verifyOff: boolean };
  /** `image_parameters.allowed_hosts`. */
  allowedHosts: Value | undefined;
  /** The UI's reserved `attr` names (`__…`, `#__…`) anywhere in `parameters` (spec 05 §4.2 step 2). */
  reservedNames: ReadonlySet<string>;
  /** The action-specific keys of `parameters` (`__CURL_COMMAND`, `__FUNCTION_CFG`, …), absent when not written. */
  own: ReadonlyMap<string, Value>;
}

function reservedNames(v: Value | undefined, out: Set<string>): Set<string> {
  if (Array.isArray(v)) for (const e of v) reservedNames(e, out);
  else if (v instanceof Map) {
    const attr = v.get('attr');
    if (typeof attr === 'string' && (attr.startsWith('__') || attr.startsWith('#__'))) out.add(attr);
    for (const e of v.values()) reservedNames(e, out);
  }
  return out;
}

function pem(v: Value | undefined): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function maxRetriesOf(v: Value | undefined): number {
  return typeof v === 'number' ? v : v instanceof PhpFloat ? Math.trunc(v.value) : 10;
}

/** The structural requirements every action has (spec 05 §2.1), with the helper's errors. */
function checkedConfig(parameters: Map<string, Value>): Map<string, Value> {
  const config = parameters.get('config');
  // The helper reads it with dict methods.
  if (!(config instanceof Map)) throw new HelperError(PY.attribute, `'${pythonTypeName(config)}' object has no attribute 'get'`);
  return config;
}

function checkedBaseUrl(api: Map<string, Value>): string {
  const base = api.get('baseUrl');
  if (base === undefined || base === null) return '';
  // The helper calls string methods on it: a function object is not supported.
  if (typeof base !== 'string') throw new HelperError(PY.attribute, `'${pythonTypeName(base)}' object has no attribute 'endswith'`);
  return base;
}

export function parseHelperConfiguration(root: Value): HelperConfiguration {
  const parameters = objectAt(root, 'parameters');
  const config = checkedConfig(parameters);
  const api = objectAt(parameters, 'api');
  const baseUrl = checkedBaseUrl(api);
  const http = objectAt(api, 'http');
  const codes = http.get('codes');
  const sslVerify = api.get('ssl_verify');
  const ca = pem(api.get('caCertificate'));
  return {
    config,
    api,
    baseUrl,
    selectedJob: parameters.get('__SELECTED_JOB'),
    jobs: config.get('jobs'),
    userData: objectAt(config, 'userData'),
    defaultHeaders: new Map([...objectAt(http, 'headers'), ...objectAt(objectAt(config, 'http'), 'headers')]),
    defaultParams: objectAt(objectAt(http, 'defaultOptions'), 'params'),
    retry: { maxRetries: maxRetriesOf(http.get('maxRetries')), codes: Array.isArray(codes) ? codes : DEFAULT_RETRY_CODES },
    pagination: objectAt(api, 'pagination'),
    tls: {
      ca,
      clientCertificate: pem(api.get('#clientCertificate')),
      verifyOff: ca === undefined && sslVerify !== undefined && sslVerify !== null && !pythonTruthy(sslVerify),
    },
    allowedHosts: objectAt(root, 'image_parameters').get('allowed_hosts'),
    reservedNames: reservedNames(parameters, new Set()),
    own: new Map([...parameters].filter(([k]) => k.startsWith('__') && k !== '__SELECTED_JOB')),
  };
}
