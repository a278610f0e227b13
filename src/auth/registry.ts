/**
 * Authentication methods by name (`api.authentication.type`). Each method lives in its own
 * file and registers one spec: its options (the schema variant of `api.authentication` and the
 * rows of docs/authentication.md), the parser of those options and the authenticator built from
 * what the parser returned. An unknown name is a user error that lists the known ones.
 */
import { UserError } from '../errors/UserError.ts';
import type { Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { Authenticator } from '../http/client.ts';
import type { HeaderList } from '../http/headers.ts';
import type { OptionsSpec } from '../spec/componentSpec.ts';

/** What a method's parser reads: the configuration's pieces that concern authentication. */
export interface AuthSource {
  /** `api.authentication` (may be absent). */
  authentication: Value | undefined;
  /** Legacy `api.query`. */
  legacyQuery: Value | undefined;
  /** Configuration attributes (`parameters.config` after the iteration merge, without jobs). */
  attributes: Value;
  /** `authorization.oauth_api.credentials` from the root of config.json. */
  oauthCredentials: Value | undefined;
  /** Receives the set-up lines (`Using 'x' authentication.`, deprecations). */
  logger: Logger;
  /**
   * Where request headers are configured (config path → header names), so the set-up line can say
   * that credentials come from headers when no authentication type is set.
   */
  headerSources?: ReadonlyMap<string, readonly string[]>;
  /** The config path of the base URL when it carries userinfo (`https://user:pass@host/`), for the same line. */
  userinfoIn?: string;
}

/** What every method's authenticator gets besides its own options. */
export interface AuthSetup {
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

/** What a method's `parse` returns: its own options, tagged with its type. */
export interface ParsedAuthOptions {
  readonly type: string;
}

/** One authentication type; `Options` is what its `parse` returns and its `create` receives. */
export interface AuthMethodSpec<Options extends ParsedAuthOptions = ParsedAuthOptions> extends OptionsSpec {
  type: string;
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
  /**
   * Reads and checks this type's options with the reference's checks in its order (the error
   * its constructor throws), so the authenticator reads no configuration key itself.
   */
  parse(source: AuthSource): Options;
  /** The authenticator of options parsed by `parse`. */
  create(setup: AuthSetup, options: Options): Authenticator;
}

// Stored type-erased (`create` is a method, so any spec is an `AuthMethodSpec<ParsedAuthOptions>`): a spec's
// `create` only ever receives what the same spec's `parse` returned (`src/auth/index.ts`).
const methods = new Map<string, AuthMethodSpec>();

export function registerAuthMethod<Options extends ParsedAuthOptions>(spec: AuthMethodSpec<Options>): void {
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
