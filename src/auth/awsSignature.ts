/**
 * AWS Signature Version 4 (spec 01 §6.2, 02 §10): `parameters.aws.signature.credentials`. Every
 * attempt (login included) is signed last, after authentication and the debug log line, the way
 * the AWS SDK for PHP's `SignatureV4` does it.
 */
import { createHash, createHmac } from 'node:crypto';
import { UserError } from '../errors/UserError.ts';
import { phpBytes } from '../functions/convert.ts';
import { isEmpty, member, type Value } from '../php/value.ts';
import type { Signer } from '../http/client.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import { buildQueryRebuild, parseQueryRebuild } from '../php/guzzleQuery.ts';
import { rawurlencode } from '../php/urlEncoding.ts';
import { textOf } from './common.ts';

// ---------------------------------------------------------------------------------------------
// parameters.aws.signature.credentials (01 §6.2, 02 §10)

export interface AwsCredentials {
  accessKeyId: string;
  secretKey: string;
  serviceName: string;
  regionName: string;
}

const AWS_PATH = 'parameters.aws.signature.credentials';

/** Reads and checks the four keys (user error `Option "<key>" under "…" cannot be empty.`). */
export function awsCredentialsFrom(credentials: Value | undefined): AwsCredentials {
  const get = (key: string): string => {
    const v = member(credentials, key);
    if (isEmpty(v)) throw new UserError(`Option "${key}" under "${AWS_PATH}" cannot be empty.`, { configPath: `${AWS_PATH}.${key}` });
    return textOf(v);
  };
  return { accessKeyId: get('accessKeyId'), secretKey: get('#secretKey'), serviceName: get('serviceName'), regionName: get('regionName') };
}

/** `parameters.aws.signature.credentials`, or `undefined` when PHP-empty (requests are not signed). */
export function awsCredentialsOf(parameters: Value | undefined): AwsCredentials | undefined {
  const credentials = member(member(member(parameters, 'aws'), 'signature'), 'credentials');
  return isEmpty(credentials) ? undefined : awsCredentialsFrom(credentials);
}

// ---------------------------------------------------------------------------------------------
// the signature

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Headers the SDK never signs. */
const UNSIGNED_HEADERS = new Set([
  'cache-control',
  'content-type',
  'content-length',
  'expect',
  'max-forwards',
  'pragma',
  'range',
  'te',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
  'if-range',
  'accept',
  'authorization',
  'proxy-authorization',
  'from',
  'referer',
  'user-agent',
  'x-amzn-trace-id',
]);

function byteOrder(a: string, b: string): number {
  return Buffer.compare(phpBytes(a), phpBytes(b));
}

function sha256Hex(data: Buffer | string): string {
  return createHash('sha256')
    .update(typeof data === 'string' ? phpBytes(data) : data)
    .digest('hex');
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', typeof key === 'string' ? phpBytes(key) : key)
    .update(phpBytes(data))
    .digest();
}

/** `YYYYMMDD'T'HHMMSS'Z'` in UTC. */
export function amzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function canonicalPath(path: string): string {
  const stripped = path.replace(/^\/+/, '');
  return '/' + rawurlencode(stripped).replaceAll('%2F', '/');
}

function canonicalQuery(query: string): string {
  const parsed = parseQueryRebuild(query);
  parsed.delete('X-Amz-Signature');
  const pairs: string[] = [];
  for (const key of [...parsed.keys()].sort(byteOrder)) {
    const v = parsed.get(key)!;
    const values = Array.isArray(v) ? [...v].map((x) => x ?? '').sort(byteOrder) : [v ?? ''];
    for (const x of values) pairs.push(`${rawurlencode(key)}=${rawurlencode(x)}`);
  }
  return pairs.join('&');
}

/** Signs `request` in place at time `nowMs` (exported for tests); returns the secrets it computed. */
export function signRequest(request: PreparedRequest, credentials: AwsCredentials, nowMs: number): string[] {
  const { headers } = request;
  headers.remove('X-Amz-Date');
  headers.remove('Date');
  headers.remove('Authorization');
  const ldt = amzDate(nowMs);
  const sdt = ldt.slice(0, 8);
  headers.append('X-Amz-Date', [ldt]);

  const payload = request.body === undefined || request.body.length === 0 ? EMPTY_SHA256 : sha256Hex(request.body);
  const aggregate = new Map<string, string[]>();
  for (const { name, values } of headers.entries) {
    const lower = name.toLowerCase();
    if (UNSIGNED_HEADERS.has(lower)) continue;
    const list = aggregate.get(lower) ?? [];
    list.push(...values);
    aggregate.set(lower, list);
  }
  const names = [...aggregate.keys()].sort(byteOrder);
  const canonicalHeaders = names.map((n) => `${n}:${[...aggregate.get(n)!].sort(byteOrder).join(',').replace(/\s+/g, ' ')}`);
  const signedHeaders = names.join(';');
  const query = request.url.query ?? '';
  const canonical = [
    request.method,
    canonicalPath(request.url.path),
    query === '' ? '' : canonicalQuery(query),
    canonicalHeaders.join('\n') + '\n',
    signedHeaders,
    payload,
  ].join('\n');

  const scope = `${sdt}/${credentials.regionName}/${credentials.serviceName}/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${ldt}\n${scope}\n${sha256Hex(canonical)}`;
  let key = hmac(`AWS4${credentials.secretKey}`, sdt);
  key = hmac(key, credentials.regionName);
  key = hmac(key, credentials.serviceName);
  key = hmac(key, 'aws4_request');
  const signature = createHmac('sha256', key).update(phpBytes(toSign)).digest('hex');
  const authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  headers.append('Authorization', [authorization]);
  if (query !== '') {
    const rebuilt = buildQueryRebuild(parseQueryRebuild(query));
    request.url.query = rebuilt === '' ? undefined : rebuilt;
  }
  // The signature alone is a secret too: an API echoes it on its own (S3's <SignatureProvided>).
  return [authorization, signature];
}

/** The signer of `parameters.aws.signature.credentials`, read by `awsCredentialsOf`. */
export function createAwsSigner(keys: AwsCredentials, nowMs: () => number): Signer {
  return { sign: (request) => signRequest(request, keys, nowMs()) };
}
