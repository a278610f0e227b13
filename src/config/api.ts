/**
 * The API description of one configuration (spec 01 §1.6 step 9.2, §2.4 group C, §3.1):
 * checks in the reference's order, then typed settings for the HTTP layer.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { childPath, itemPath } from '../errors/configPath.ts';
import { UserError } from '../errors/UserError.ts';
import { evaluate, flattenContext } from '../functions/index.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, member, PhpArray, phpType, type Value } from '../php/value.ts';
import { checkHeader, HeaderList, headerValues } from '../http/headers.ts';
import type { RetryPolicy } from '../http/retry.ts';
import { retryPolicyFrom } from '../http/retryOptions.ts';
import { readTimeout } from '../http/timeoutOptions.ts';
import { isValidUrl, parseReference } from '../http/url.ts';
import { InvalidUriError } from '../errors/InvalidUriError.ts';
import type { Logger } from '../logging/logger.ts';
import type { SecretRegistry } from '../logging/redact.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import { validateApiSection } from './validate.ts';
import { attributesOf } from './configurations.ts';

export interface ApiDescription {
  baseUrl: string;
  name: string;
  retry: RetryPolicy;
  ignoreErrors: Value[];
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  caCertificate: string | undefined;
  clientCertificate: { cert: string; key: string } | undefined;
  defaultOptions: Value | undefined;
  pagination: Value | undefined;
  authentication: Value | undefined;
  /** Unevaluated `api.http.headers` ⊕ `config.http.headers`. */
  headerDefinitions: PhpArray;
  api: PhpArray;
}

/** Splits a PEM bundle into certificate blocks and the private key block. */
/**
 * A header `requiredHeaders` names is not set. An entry that is not a string (a number, `true`,
 * a list) is looked up by its PHP string form, as the reference does; when that fails the entry
 * itself is the likely mistake, so the error names it rather than a header called "1" or "Array".
 */
const REQUIRED_HEADERS = 'parameters.api.http.requiredHeaders';

function missingRequiredHeader(index: string, name: Value, pathOf: PathOf): UserError {
  const key = phpString(name);
  const message = `Missing required header ${key} in 'config.http.headers'.`;
  if (typeof name === 'string') return new UserError(message, { configPath: configHeaderPath(pathOf, key) });
  const entry = /^\d+$/.test(index) ? itemPath(REQUIRED_HEADERS, index) : childPath(REQUIRED_HEADERS, index);
  return new UserError(`${message} requiredHeaders lists header names: write this one in quotes, e.g. "X-Api-Key".`, { configPath: entry });
}

export function splitPem(pem: string): { cert: string; key: string } {
  const blocks = pem.match(/-----BEGIN [^-]+-----[\s\S]*?-----END [^-]+-----/g) ?? [];
  const key = blocks.filter((b) => /PRIVATE KEY/.test(b)).join('\n');
  const cert = blocks.filter((b) => !/PRIVATE KEY/.test(b)).join('\n');
  return { cert, key };
}

/**
 * A base URL that passes the reference's validator but that its URI parser cannot take (a port
 * above 65535, for example) crashes the reference at the first request ("Unable to parse URI",
 * exit 2); here it is a user error naming the key, before any request.
 */
function parsableBaseUrl(url: string): string {
  try {
    parseReference(url);
    return url;
  } catch (e) {
    if (!(e instanceof InvalidUriError)) throw e;
    const port = /^[^:/?#]+:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/.exec(url)?.[1];
    const why = port !== undefined && Number(port) > 65535 ? `port ${port} is out of range (1-65535)` : 'it cannot be parsed as a URI';
    throw new UserError(`The 'baseUrl' attribute in API configuration is not a valid URL: ${why}. Fix "parameters.api.baseUrl" (${url}).`, {
      configPath: 'parameters.api.baseUrl',
    });
  }
}

function resolveBaseUrl(api: PhpArray, attrs: PhpArray, logger: Logger): string {
  return parsableBaseUrl(evaluatedBaseUrl(api, attrs, logger));
}

function evaluatedBaseUrl(api: PhpArray, attrs: PhpArray, logger: Logger): string {
  let base = api.get('baseUrl');
  if (isEmpty(base))
    throw new UserError("The 'baseUrl' attribute must be set in API configuration", { configPath: 'parameters.api.baseUrl' });
  if (typeof base === 'string') {
    if (isValidUrl(base)) return base;
    let decoded: Value;
    try {
      decoded = decodeJson(base, 'config');
    } catch {
      throw new UserError("The 'baseUrl' attribute in API configuration is not a valid URL", { configPath: 'parameters.api.baseUrl' });
    }
    logger.warning('Passing json-encoded baseUrl is deprecated.');
    base = decoded;
  }
  let result: Value;
  try {
    result = evaluate(base!, { attr: flattenContext(attrs) });
  } catch (e) {
    if (e instanceof UserError)
      throw new UserError(`User script error: ${e.message}`, { configPath: 'parameters.api.baseUrl', context: e.context });
    throw e;
  }
  if (typeof result !== 'string' || !isValidUrl(result)) {
    const shown = typeof result === 'string' ? result : phpString(isMap(result) || Array.isArray(result) ? null : result);
    throw new UserError(`The "baseUrl" attribute in API configuration resulted in an invalid URL (${shown})`, {
      configPath: 'parameters.api.baseUrl',
    });
  }
  return result;
}

function mapOf(v: Value | undefined): PhpArray {
  return v instanceof PhpArray ? v : new PhpArray();
}

/** `pathOf` of the configuration (configurations.ts): where a key of `config` was written. */
type PathOf = (key: string) => string;

const CONFIG_PATH_OF: PathOf = (key) => childPath('parameters.config', key);

/** The path of a header of `config.http.headers`, in `parameters.config` or in the iteration that supplies `http`. */
function configHeaderPath(pathOf: PathOf, name: string): string {
  return childPath(childPath(pathOf('http'), 'headers'), name);
}

export function buildApiDescription(
  parameters: Value | undefined,
  config: PhpArray,
  logger: Logger,
  pathOf: PathOf = CONFIG_PATH_OF,
): ApiDescription {
  const apiValue = member(parameters, 'api');
  if (apiValue === undefined || apiValue === null)
    throw new UserError("The 'api' section is required in configuration.", { configPath: 'parameters.api' });
  validateApiSection(apiValue, 'parameters.api');
  const api = mapOf(apiValue);
  const attrs = attributesOf(config);
  const http = mapOf(api.get('http'));

  const required = http.get('requiredHeaders');
  const configHeaders = mapOf(member(config.get('http'), 'headers'));
  if (Array.isArray(required) || required instanceof PhpArray) {
    const entries = Array.isArray(required) ? required.map((v, i) => [String(i), v] as const) : [...required.entries()];
    for (const [index, name] of entries) {
      if (!isEmpty(configHeaders.get(phpString(name)))) continue;
      throw missingRequiredHeader(index, name, pathOf);
    }
  }

  const pagination = api.get('pagination');
  const pages = member(pagination, 'pages');
  if (
    pages !== undefined &&
    !(typeof pages === 'number' || typeof pages === 'bigint' || (typeof pages === 'string' && /^\d+$/.test(pages)))
  ) {
    throw new UserError(`Value "pages" in "api.pagination" has to be int, ${phpType(pages)} given.`, {
      configPath: 'parameters.api.pagination.pages',
    });
  }

  const baseUrl = resolveBaseUrl(api, attrs, logger);

  const ca = api.get('caCertificate');
  if (ca === '') throw new ApplicationError('Key "api.caCertificate" is not configured.');
  const clientCert = api.get('#clientCertificate');
  if (clientCert === '') throw new ApplicationError('Key "api.clientCertificate" is not configured.');

  const headerDefinitions = new PhpArray();
  for (const source of [http.get('headers'), config.get('http') instanceof PhpArray ? member(config.get('http'), 'headers') : undefined]) {
    if (source instanceof PhpArray && source.size > 0) for (const [k, v] of source) headerDefinitions.set(k, v);
  }

  const ignore = http.get('ignoreErrors');
  return {
    baseUrl,
    name: isEmpty(api.get('name')) ? 'generic' : phpString(api.get('name')!),
    retry: retryPolicyFrom(api.get('retryConfig')),
    ignoreErrors: Array.isArray(ignore) ? ignore : ignore instanceof PhpArray ? [...ignore.values()] : [],
    // Timeouts in seconds (01 §3.9); what a value counts as, and the WARNING, come from readTimeout.
    connectTimeoutMs: readTimeout(http.get('connectTimeout'), 30).value,
    requestTimeoutMs: readTimeout(http.get('requestTimeout'), 300).value,
    caCertificate: typeof ca === 'string' ? ca : undefined,
    clientCertificate: typeof clientCert === 'string' ? splitPem(clientCert) : undefined,
    defaultOptions: http.get('defaultOptions'),
    pagination,
    authentication: api.get('authentication'),
    headerDefinitions,
    api,
  };
}

/** Client headers evaluated once per configuration with the `attr` context (01 §3.6, D1). */
export function evaluateClientHeaders(
  definitions: PhpArray,
  config: PhpArray,
  pathOf: PathOf = CONFIG_PATH_OF,
  secrets?: SecretRegistry,
): HeaderList {
  const attrs = attributesOf(config);
  const list = new HeaderList();
  const ctx = { attr: flattenContext(attrs) };
  for (const [name, raw] of definitions) {
    // `config.http.headers` wins over `api.http.headers` (buildApiDescription): its path is named.
    const fromConfig = member(member(config.get('http'), 'headers'), name) !== undefined;
    const path = fromConfig ? configHeaderPath(pathOf, name) : childPath('parameters.api.http.headers', name);
    let value: Value;
    try {
      value = isMap(raw) ? evaluate(raw, ctx, secrets ? { secrets } : {}) : raw;
    } catch (e) {
      if (e instanceof UserError)
        throw new UserError(`User script error: ${e.message}`, {
          configPath: path,
          context: e.context,
        });
      throw e;
    }
    const objectPath = findObject(value, name);
    if (objectPath !== undefined) {
      throw new UserError(`Invalid configuration: invalid type "object" in headers at path: ${objectPath}`, {
        configPath: path,
      });
    }
    const values = headerValues(value);
    checkHeader(name, values, path);
    list.append(name, values);
  }
  return list;
}

function findObject(v: Value, path: string): string | undefined {
  if (isMap(v)) return path;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = findObject(v[i]!, `${path}.${i}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
