/**
 * Turns a final HTTP response into a decoded value, an HTTP error, or, for statuses listed in
 * `ignoreErrors`, a value that stands in for the data (spec 01 §3.13).
 */
import { constants } from 'node:buffer';
import { HttpError } from '../errors/HttpError.ts';
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { UserError } from '../errors/UserError.ts';
import { decodeJson, decodeUtf8Lossy, type RecordsAt } from '../php/jsonDecode.ts';
import { phpString } from '../php/stringConversion.ts';
import { JsonObject, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { SecretRegistry } from '../logging/redact.ts';
import { bodyExcerpt, MAX_CONTEXT_BODY } from './bodyExcerpt.ts';
import { displayUrl } from './prepared.ts';
import { asciiFirst } from './url.ts';
import type { ClientResponse } from './client.ts';

/**
 * Letters, marks, digits, punctuation, symbols, separators, \n \r \t. Through an ASCII twin for an
 * ASCII body (`asciiFirst`): together the classes' ASCII members are exactly U+0020–U+007E.
 */
export const PRINTABLE_SOURCE = String.raw`^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Z}\n\r\t]*$`;
export const PRINTABLE_ASCII_MEMBERS: Readonly<Record<string, string>> = {
  '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Z}': String.raw`\x20-\x7e`,
};
const PRINTABLE = asciiFirst(PRINTABLE_SOURCE, PRINTABLE_ASCII_MEMBERS);

/** First 120 bytes of the body, or nothing when it is empty or not printable (Guzzle's summary). */
function bodySummary(body: Buffer): string | undefined {
  if (body.length === 0) return undefined;
  let text = body.subarray(0, 120).toString('utf8');
  if (body.length > 120) text += ' (truncated...)';
  if (
    !PRINTABLE.test(
      body
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/u, ''),
    )
  )
    return undefined;
  return text;
}

/**
 * `secrets` hides known secrets in the body before the summary cuts it at 120 bytes: once cut, a
 * secret echoed by the API would only partly match and the log redaction would miss it.
 */
/**
 * A body longer than the longest string Node can hold (≈512 MiB, e.g. a small gzip bomb) cannot
 * be decoded: a user error, instead of a crash (exit 2) in the string conversion.
 */
function checkBodySize(res: ClientResponse): void {
  if (res.body.length > constants.MAX_STRING_LENGTH) {
    throw new UserError(
      `The API response is too large to process: ${res.body.length} bytes (\`${res.request.method} ${displayUrl(res.request.url)}\`, status ${res.status}); the limit is ${constants.MAX_STRING_LENGTH} bytes.`,
    );
  }
}

export function httpErrorFor(res: ClientResponse, secrets?: SecretRegistry): HttpError {
  checkBodySize(res);
  const kind = res.status >= 500 ? 'Server' : 'Client';
  let summary = `${kind} error: \`${res.request.method} ${displayUrl(res.request.url)}\` resulted in a \`${res.status} ${res.statusText}\` response`;
  const text = secrets ? res.body.toString('utf8') : '';
  const redacted = secrets ? secrets.redact(text) : '';
  const bodyText = bodySummary(redacted === text ? res.body : Buffer.from(redacted));
  if (bodyText !== undefined) summary += `:\n${bodyText}\n`;
  const raw = res.body.toString('utf8');
  let decoded: unknown = '';
  try {
    decoded = JSON.parse(raw);
    // A huge JSON error body is shown as an excerpt, not as a log line of its full size.
    if (raw.length > MAX_CONTEXT_BODY) decoded = bodyExcerpt(raw, res.body.length, secrets);
  } catch {
    decoded = '';
  }
  // How many attempts were made belongs to the story of the failure (the message itself is the reference's).
  return new HttpError(res.status, summary, raw, { body: decoded, attempts: res.attempts });
}

/**
 * From this body size on, the records' array is decoded lazily (src/php/lazyArray.ts): a page
 * is then held as its text plus one chunk of decoded records instead of as every record decoded
 * (~15 × the text). Smaller pages are decoded whole: reading records once is faster than three
 * lazy passes (analysis, spool, child jobs). EX_GENERIC_LAZY_RECORDS_BYTES overrides it (tests
 * set 0 to run every page through the lazy path).
 */
const LAZY_RECORDS_BYTES = 4 * 1024 * 1024;
let lazyFrom: number | undefined;

function lazyRecordsFrom(): number {
  if (lazyFrom === undefined) {
    const text = (process.env['EX_GENERIC_LAZY_RECORDS_BYTES'] ?? '').trim();
    lazyFrom = text !== '' && Number(text) >= 0 ? Number(text) : LAZY_RECORDS_BYTES;
  }
  return lazyFrom;
}

/** `release`: the body's bytes are freed once they are text (`releaseBody`), before the decoding. */
function decodeBody(res: ClientResponse, secrets?: SecretRegistry, records?: RecordsAt, release = false): Value {
  const bytes = res.body.length;
  const text = decodeUtf8Lossy(res.body);
  if (release) releaseBody(res);
  try {
    return decodeJson(text, 'response', records !== undefined && bytes >= lazyRecordsFrom() ? records : undefined);
  } catch (e) {
    if (!(e instanceof JsonDecodeError)) throw e;
    const json = text.length > MAX_CONTEXT_BODY ? bodyExcerpt(text, bytes, secrets) : text;
    throw new UserError(`Invalid JSON response from API: JSON decode error: ${e.apiReason}`, {
      context: { json, errDetail: e.reason },
    });
  }
}

const NO_BYTES = Buffer.alloc(0);

/**
 * Frees a decoded page's bytes now: the page is held as its decoded value (a large one as its
 * text) while its records are processed, and the bytes were held beside it — by the page loop, by
 * a request sent ahead — until a full garbage collection, which a page's processing may not bring
 * for seconds: a page of 200 MB was held twice, and ended in the kernel's kill in the platform's
 * 512 MB container (docs/performance.md, "Huge pages"). A body that has its memory to itself is
 * detached (`ArrayBuffer.prototype.transfer`, which frees it at once); one that is a slice of
 * Node's pool of small buffers is only dropped. The response keeps an empty body.
 */
export function releaseBody(res: ClientResponse): void {
  const body = res.body;
  res.body = NO_BYTES;
  const memory = body.buffer as ArrayBufferLike & { transfer?: (length: number) => ArrayBuffer };
  if (body.length > 0 && body.byteOffset === 0 && memory.byteLength === body.length && memory instanceof ArrayBuffer) memory.transfer?.(0);
}

/** PHP loose `in_array`: "404" matches 404. */
function listed(ignoreErrors: readonly Value[], status: number): boolean {
  return ignoreErrors.some((code) => {
    if (typeof code === 'number' || typeof code === 'bigint') return Number(code) === status;
    if (typeof code === 'string') return code.trim() !== '' && Number(code) === status;
    if (code !== null && typeof code === 'object' && !Array.isArray(code) && !(code instanceof Map))
      return phpString(code) === String(status);
    return false;
  });
}

/**
 * `records`: where the job looks for its records (decoded lazily when the body is large).
 * `release`: the caller gives the response's bytes up — freed as soon as they are text
 * (`releaseBody`); a page's text and its bytes then never live side by side while it is decoded.
 */
export function interpretResponse(
  res: ClientResponse,
  ignoreErrors: readonly Value[],
  logger: Logger,
  records?: RecordsAt,
  release = false,
): Value {
  checkBodySize(res);
  const ignored = listed(ignoreErrors, res.status);
  if (res.status >= 400) {
    const error = httpErrorFor(res, logger.secrets);
    if (!ignored) throw error;
    logger.warning(`Failed to get response ${error.summary}`);
    return decodeOrErrorData(res, logger, 'Failed to parse response ');
  }
  if (!ignored) return decodeBody(res, logger.secrets, records, release);
  return decodeOrErrorData(res, logger, 'Failed to get response ');
}

function decodeOrErrorData(res: ClientResponse, logger: Logger, prefix: string): Value {
  try {
    return decodeBody(res, logger.secrets);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    logger.warning(prefix + e.message);
    return new JsonObject([['errorData', res.body.toString('utf8')]]);
  }
}
