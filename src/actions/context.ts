/**
 * What every sync action starts from (spec 05 §2, §4.1 step 1): the configuration parsed once
 * (configuration.ts), its user parameters evaluated and its authentication built by src/auth's
 * sync-action registry (so a bad authentication fails every action, as in the reference).
 */
import { createHelperAuthenticator, type HelperAuthenticator } from '../auth/helper.ts';
import type { Value } from '../php/value.ts';
import { type HelperConfiguration, parseHelperConfiguration } from './configuration.ts';
import { type ActionEnv, userParameters } from './dialect.ts';
import { helperDialect } from './helperDialect.ts';
import type { ActionClock, AnswerDeadlines } from './helperHttp.ts';

export interface ActionContext {
  action: string;
  configuration: HelperConfiguration;
  /** §2.2, evaluated once at start-up. */
  user: Map<string, Value>;
  /** The HTTP client applies it before every attempt inside the credential scope. */
  auth: HelperAuthenticator;
  env: ActionEnv;
  /** Aborted when the time limit is reached: no new request or pause starts after that. */
  signal: AbortSignal;
  /** Epoch ms after which no retry pause may end, and by which every attempt ends (the answer's budget). */
  deadlines: AnswerDeadlines;
  /** Lines of `debug_log` (§5.2). */
  debugLog: string[];
  /** The requests' clock and retry pauses. */
  clock: ActionClock;
  /** Run when the action ends, whatever the outcome (open connections). */
  cleanup: (() => void)[];
}

export interface ContextLimits {
  signal: AbortSignal;
  deadlines: AnswerDeadlines;
  clock: ActionClock;
}

export function createContext(action: string, root: Value, env: ActionEnv, limits: ContextLimits, debugLog: string[]): ActionContext {
  const configuration = parseHelperConfiguration(root);
  const user = userParameters(configuration.config, env);
  const auth = createHelperAuthenticator({ config: configuration.config, api: configuration.api, user, dialect: helperDialect(env) });
  return { action, configuration, user, auth, env, ...limits, debugLog, cleanup: [] };
}
