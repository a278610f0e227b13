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
import type { AuthOptions, AuthType } from '../config/authOptions.ts';

export interface AuthSetup {
  /** `api.authentication`, parsed and checked by `src/config/authOptions.ts`. */
  options: AuthOptions;
  /** Configuration attributes (`parameters.config` after the iteration merge, without jobs): the `attr` context. */
  attributes: Value;
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
}

export interface AuthMethodSpec<T extends AuthType = AuthType> {
  type: T;
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
  /** The authenticator of options parsed for this type. */
  create(setup: AuthSetup, options: Extract<AuthOptions, { type: T }>): Authenticator;
}

const methods = new Map<string, AuthMethodSpec>();

export function registerAuthMethod<T extends AuthType>(spec: AuthMethodSpec<T>): void {
  methods.set(spec.type, spec as unknown as AuthMethodSpec);
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
