/**
 * Authentication of the sync actions (spec 05 §2.5): a registry beside the extractor's
 * (registry.ts), keyed by the UI builder's method names. Why a second registry and not a flag on
 * the first: the helper's `basic`, `query` and `login` share their names with the extractor's
 * types but read other keys (`config.__AUTH_METHOD`, `#__BEARER_TOKEN`, `#__AUTH_TOKEN`), fail
 * with other errors (Python `ValueError`s in the envelope) and send differently (`query` always
 * appends `?`, `login` reads `apiRequest.params` and never expires), and `bearer`/`api-key` exist
 * only here; one map keyed by type cannot hold two specs of one name, and these methods must
 * stay out of the extraction's schema and docs/authentication.md. Each method is one file that
 * registers itself; what it builds is an ordinary `Authenticator` of src/http, applied by the
 * HTTP client before every attempt inside the credential scope, as the extraction's are.
 *
 * The helper's value semantics (Python `str`, truthiness, the "fill" of spec 05 §2.3) belong to
 * src/actions, a layer above: they come in as a `HelperDialect`.
 */
import type { Authenticator } from '../http/client.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import type { Value } from '../php/value.ts';

/** The Python classes a method's errors are shown as (envelope, spec 05 §1.4). */
export type HelperErrorKind = 'value' | 'type' | 'httpError' | 'jsonDecode';

/** The helper's value semantics, supplied by src/actions. */
export interface HelperDialect {
  /** Python `str(v)`. */
  str(v: Value | undefined): string;
  truthy(v: Value | undefined): boolean;
  /** `urlencode(params, doseq=True)`: null values dropped, lists repeated. */
  formEncode(params: Iterable<readonly [string, Value]>): string;
  /** Python's `json.dumps` text. */
  jsonText(v: Value): string;
  /** Spec 05 §2.3 "fill" of a fragment against user parameters. */
  fill(fragment: Value | undefined, user: Map<string, Value>, evaluateFunctions: boolean): Value;
  /** Spec 05 §8.2: one expression. */
  evaluate(expression: Value, user: Map<string, Value>): Value;
  error(kind: HelperErrorKind, message: string): Error;
}

/** What a method reads: the UI builder's configuration. */
export interface HelperAuthSource {
  /** `parameters.config`, raw. */
  config: Map<string, Value>;
  /** `parameters.api`. */
  api: Map<string, Value>;
  /** Spec 05 §2.2: the user parameters, evaluated once by the action (a method never evaluates them again). */
  user: Map<string, Value>;
  dialect: HelperDialect;
}

/** A request the login sends (before the API requests, spec 05 §2.5). */
export interface HelperLoginRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Configured headers; the session adds its own before them. */
  headers: [string, string][];
  body: { text: string; contentType: string } | null;
}

export interface HelperLoginResponse {
  status: number;
  reason: string;
  text: string;
  /** The URL requested, as the helper's HTTP error message shows it. */
  url: string;
}

export interface HelperAuthenticator extends Authenticator {
  /** The method name as configured (`''` for none). */
  readonly method?: string;
  /**
   * Spec 05 §4.2 step 2: an object-valued default `Authorization` header is the UI's placeholder
   * for what this method sends, so it is dropped (`bearer`).
   */
  readonly dropsAuthorizationPlaceholder?: boolean;
  /** Values masked in the answer (spec 05 §5.3); for `login`, known once logged in. */
  secrets(): string[];
  /** The log-in before the first API request (spec 05 §4.1 step 4); `send` is unauthenticated. */
  login?(baseUrl: string, send: (request: HelperLoginRequest) => Promise<HelperLoginResponse>): Promise<void>;
}

export interface HelperAuthMethodSpec {
  /** Names that select it (`login` and `oauth2` are one method). */
  types: readonly string[];
  /** What it sends, in one sentence (docs/actions.md). */
  description: string;
  /** Reads the configuration and throws the helper's construction errors; the authenticator. */
  create(source: HelperAuthSource): HelperAuthenticator;
}

const methods = new Map<string, HelperAuthMethodSpec>();

export function registerHelperAuthMethod(spec: HelperAuthMethodSpec): void {
  for (const type of spec.types) methods.set(type, spec);
}

/** The registered specs, each once, in registration order. */
export function helperAuthMethodSpecs(): HelperAuthMethodSpec[] {
  return [...new Set(methods.values())];
}

/** No authentication: a method name the UI writes when the credentials are in headers. */
const NO_AUTHENTICATION: HelperAuthenticator = { secrets: () => [], authenticate: async () => {} };

/**
 * The authenticator of a sync action's configuration (built for every action: a bad setup fails
 * even `perform_function`, as in the reference). An unknown name is the helper's ValueError.
 */
export function createHelperAuthenticator(source: HelperAuthSource): HelperAuthenticator {
  const authentication = source.api.get('authentication');
  const configured = source.config.get('__AUTH_METHOD');
  const chosen = source.dialect.truthy(configured) ? configured : authentication instanceof Map ? authentication.get('type') : undefined;
  const method = chosen === undefined || chosen === null ? '' : source.dialect.str(chosen);
  if (method === '' || method === 'custom') return { ...NO_AUTHENTICATION, method };
  const spec = methods.get(method);
  if (!spec) throw source.dialect.error('value', `Unsupported auth method: ${method}`);
  return { ...spec.create(source), method };
}

/** Sets a header where it stands (or appends it), as `requests` updates its header dict; hidden in logs. */
export function replaceAuthHeader(request: PreparedRequest, name: string, value: string): void {
  request.headers.replace(name, [value]);
  request.authHeaders.add(name.toLowerCase());
}

/** Appends `?` + the encoded parameters, even after an existing query: the helper's rule (spec 05 §2.5). */
export function appendHelperQuery(request: PreparedRequest, encoded: string): void {
  if (encoded === '') return;
  const query = request.url.query;
  request.url.query = query === undefined || query === '' ? encoded : `${query}?${encoded}`;
}

/** The object member `key` of a configuration value, or an empty object. */
export function objectAt(v: Value | undefined, key: string): Map<string, Value> {
  const found = v instanceof Map ? v.get(key) : undefined;
  return found instanceof Map ? found : new Map();
}
