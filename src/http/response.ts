/**
 * Turns a final HTTP response into a decoded value, an HTTP error, or, for statuses listed in
 * `ignoreErrors`, a value that stands in for the data (spec 01 §3.13).
 */
import { HttpError } from '../errors/HttpError.ts';
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { UserError } from '../errors/UserError.ts';
import { decodeJson, decodeUtf8Lossy } from '../json/decode.ts';
import { phpString } from '../json/numbers.ts';
import { JsonObject, type Value } from '../json/value.ts';
import type { Logger } from '../logging/logger.ts';
import { displayUrl } from './prepared.ts';
import type { ClientResponse } from './client.ts';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Z}\n\r\t]*$/u;

/** First 120 bytes of the body, or nothing when it is empty or not printable (Guzzle's summary). */
function bodySummary(body: Buffer): string | undefined {
  if (body.length === 0) return undefined;
  let text = body.subarray(0, 120).toString('utf8');
  if (body.length > 120) text += ' (truncated...)';
  if (!PRINTABLE.test(body.subarray(0, 120).toString('utf8').replace(/\uFFFD$/u, ''))) return undefined;
  return text;
}

export function httpErrorFor(res: ClientResponse): HttpError {
  const kind = res.status >= 500 ? 'Server' : 'Client';
  let summary = `${kind} error: \`${res.request.method} ${displayUrl(res.request.url)}\` resulted in a \`${res.status} ${res.statusText}\` response`;
  const bodyText = bodySummary(res.body);
  if (bodyText !== undefined) summary += `:\n${bodyText}\n`;
  const raw = res.body.toString('utf8');
  let decoded: unknown = '';
  try {
    decoded = JSON.parse(raw);
  } catch {
    decoded = '';
  }
  return new HttpError(res.status, summary, raw, { body: decoded });
}

function decodeBody(res: ClientResponse): Value {
  const text = decodeUtf8Lossy(res.body);
  try {
    return decodeJson(text, 'response');
  } catch (e) {
    if (!(e instanceof JsonDecodeError)) throw e;
    throw new UserError(`Invalid JSON response from API: JSON decode error: ${e.apiReason}`, {
      context: { json: text, errDetail: e.reason },
    });
  }
}

/** PHP loose `in_array`: "404" matches 404. */
function listed(ignoreErrors: readonly Value[], status: number): boolean {
  return ignoreErrors.some((code) => {
    if (typeof code === 'number' || typeof code === 'bigint') return Number(code) === status;
    if (typeof code === 'string') return code.trim() !== '' && Number(code) === status;
    if (code !== null && typeof code === 'object' && !Array.isArray(code) && !(code instanceof Map)) return phpString(code) === String(status);
    return false;
  });
}

export function interpretResponse(res: ClientResponse, ignoreErrors: readonly Value[], logger: Logger): Value {
  const ignored = listed(ignoreErrors, res.status);
  if (res.status >= 400) {
    const error = httpErrorFor(res);
    if (!ignored) throw error;
    logger.warning(`Failed to get response ${error.summary}`);
    return decodeOrErrorData(res, logger, 'Failed to parse response ');
  }
  if (!ignored) return decodeBody(res);
  return decodeOrErrorData(res, logger, 'Failed to get response ');
}

function decodeOrErrorData(res: ClientResponse, logger: Logger, prefix: string): Value {
  try {
    return decodeBody(res);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    logger.warning(prefix + e.message);
    return new JsonObject([['errorData', res.body.toString('utf8')]]);
  }
}
