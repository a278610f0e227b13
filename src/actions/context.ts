/**
 * What every sync action starts from (spec 05 §2, §4.1 step 1): the configuration read the
 * helper's way, with its user parameters evaluated and its authentication method built (so a
 * bad authentication fails every action, as in the reference).
 */
import type { FunctionEnv } from '../functions/index.ts';
import { PhpArray, type Value } from '../php/value.ts';
import { HelperError, PY } from './envelope.ts';
import { objectAt, userParameters } from './dialect.ts';
import { createHelperAuthenticator, type HelperAuthenticator } from '../auth/helper.ts';
import { helperDialect } from './helperDialect.ts';
import { pythonTypeName } from './pythonValues.ts';

export interface ActionContext {
  action: string;
  root: Map<string, Value>;
  parameters: Map<string, Value>;
  /** `parameters.config`. */
  config: Map<string, Value>;
  /** `parameters.api`. */
  api: Map<string, Value>;
  baseUrl: string;
  /** §2.2, evaluated once at start-up. */
  user: Map<string, Value>;
  /** From src/auth's sync-action registry; the HTTP client applies it before every attempt. */
  auth: HelperAuthenticator;
  env: FunctionEnv;
  /** Aborted when the time limit is reached: no new request or pause starts after that. */
  signal: AbortSignal;
  /** Epoch ms after which no retry pause may end (a little before the time limit). */
  deadlineMs: number;
  /** Lines of `debug_log` (§5.2). */
  debugLog: string[];
  /** Run when the action ends, whatever the outcome (open connections). */
  cleanup: (() => void)[];
}

export interface ContextLimits {
  signal: AbortSignal;
  deadlineMs: number;
}

export function createContext(action: string, root: Value, env: FunctionEnv, limits: ContextLimits, debugLog: string[]): ActionContext {
  const rootMap = root instanceof Map ? root : new PhpArray();
  const parameters = objectAt(rootMap, 'parameters');
  const rawConfig = parameters.get('config');
  // The helper reads it with dict methods (§2.1 structural requirement).
  if (!(rawConfig instanceof Map)) throw new HelperError(PY.attribute, `'${pythonTypeName(rawConfig)}' object has no attribute 'get'`);
  const config = rawConfig;
  const api = objectAt(parameters, 'api');
  const base = api.get('baseUrl');
  if (base !== undefined && base !== null && typeof base !== 'string') {
    // The helper calls string methods on it (§2.1: a function object is not supported).
    throw new HelperError(PY.attribute, `'${pythonTypeName(base)}' object has no attribute 'endswith'`);
  }
  const user = userParameters(config, env);
  const auth = createHelperAuthenticator({ config, api, dialect: helperDialect(env) });
  return { action, root: rootMap, parameters, config, api, baseUrl: base ?? '', user, auth, env, ...limits, debugLog, cleanup: [] };
}
