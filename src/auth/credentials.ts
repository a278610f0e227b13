/**
 * `authorization.oauth_api.credentials` of config.json's root (spec 02 §7–§9): the stored OAuth
 * authorization the platform writes, read by `oauth20.login`, `oauth20` and `oauth10`.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { UserError } from '../errors/UserError.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, type Value } from '../php/value.ts';

export const CREDENTIALS_PATH = 'authorization.oauth_api.credentials';
export const DATA_PATH = `${CREDENTIALS_PATH}.#data`;

export interface OAuthCredentials {
  data: Value;
  appKey: Value;
  appSecret: Value;
}

/**
 * The three credential keys, checked in the order `#data`, `appKey`, `#appSecret` (02 §7–§9).
 * `missing(key)` builds the per-method message.
 */
export function oauthCredentials(credentials: Value | undefined, notSupplied: string, missing: (key: string) => string): OAuthCredentials {
  if (isEmpty(credentials)) throw new UserError(notSupplied, { configPath: CREDENTIALS_PATH });
  const get = (k: string): Value | undefined => (isMap(credentials) ? credentials.get(k) : undefined);
  for (const key of ['#data', 'appKey', '#appSecret']) {
    if (isEmpty(get(key))) throw new UserError(missing(key), { configPath: `${CREDENTIALS_PATH}.${key}` });
  }
  return { data: get('#data')!, appKey: get('appKey')!, appSecret: get('#appSecret')! };
}

/** The `#data` text: strings as they are, other scalars in PHP string form; containers are internal errors. */
export function oauthDataText(data: Value): string {
  if (isMap(data) || Array.isArray(data))
    throw new ApplicationError('json_decode() expects parameter 1 to be string, array given', {
      context: { path: DATA_PATH },
    });
  return phpString(data);
}

/**
 * `#data` decoded as JSON (`mode`: how the method's reference code decodes it); text that is not
 * JSON ends in the method's own error, built by `invalid`.
 */
export function decodeOAuthData(data: Value, mode: 'config' | 'response', invalid: (e: JsonDecodeError) => Error): Value {
  try {
    return decodeJson(oauthDataText(data), mode);
  } catch (e) {
    if (!(e instanceof JsonDecodeError)) throw e;
    throw invalid(e);
  }
}
