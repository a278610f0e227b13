/**
 * Authentication methods by name (`api.authentication.type`). Each method lives in its own
 * file and registers itself with a spec that documents it; an unknown name is a user error
 * that lists the known ones.
 */
import { UserError } from '../errors/UserError.ts';
import type { Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { Authenticator } from '../http/client.ts';
import type { HeaderList } from '../http/headers.ts';

export interface AuthSetup {
  /** `api.authentication` (may be absent). */
  config: Value | undefined;
  /** Legacy `api.query`, when present. */
  legacyQuery: Value | undefined;
  /** Configuration attributes (`parameters.config` after the iteration merge, without jobs). */
  attributes: Value;
  /** `authorization.oauth_api.credentials` from the root of config.json. */
  oauthCredentials: Value | undefined;
  baseUrl: string;
  logger: Logger;
  /** Injectable clock (ms) and nonce source for deterministic tests. */
  nowMs: () => number;
  /**
   * A fresh lowercase hex string of `length` characters (oauth20: 16, oauth10: 40).
   * Production: `randomHexNonce` from `src/auth/index.ts`.
   */
  nonce: (length: number) => string;
  /**
   * Evaluated client-level headers (`api.http.headers` ⊕ `config.http.headers`), sent with the
   * login request too (02 §6.4). Read lazily at the first login; absent = none.
   */
  clientHeaders?: () => HeaderList;
  /**
   * Where request headers are configured (config path → header names), so the set-up line can say
   * that credentials come from headers when no authentication type is set.
   */
  headerSources?: ReadonlyMap<string, readonly string[]>;
}

export interface AuthMethodSpec {
  type: string;
  description: string;
  /**
   * A working `api.authentication` (with the `parameters.config` attributes and the root
   * `authorization` it reads, if any) and what it sends, rendered in docs/authentication.md.
   */
  example: {
    authentication: Record<string, unknown>;
    config?: Record<string, unknown>;
    authorization?: Record<string, unknown>;
    sends: string;
  };
  /** Validates the configuration and returns the authenticator (throws UserError on bad config). */
  create(setup: AuthSetup): Authenticator;
}

const methods = new Map<string, AuthMethodSpec>();

export function registerAuthMethod(spec: AuthMethodSpec): void {
  methods.set(spec.type, spec);
}

export function authMethodTypes(): string[] {
  return [...methods.keys()];
}

export function getAuthMethod(type: string): AuthMethodSpec {
  const spec = methods.get(type);
  if (!spec) {
    throw new UserError(`Unknown authorization type '${type}'.`, {
      configPath: 'parameters.api.authentication.type',
      context: { knownTypes: authMethodTypes() },
    });
  }
  return spec;
}
