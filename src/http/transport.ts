/**
 * One HTTP attempt over node:http/https. We drive the sockets ourselves because the
 * request target must be sent byte for byte as computed (spec 01 §3.3 step 4): clients that
 * normalise through WHATWG URL would re-encode it.
 */
import type http from 'node:http';
import type https from 'node:https';
import type { Duplex } from 'node:stream';
import { CurlError } from '../errors/CurlError.ts';
import type { HeaderList } from './headers.ts';

export interface WireRequest {
  method: string;
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** Request target: path and query, exactly as sent. */
  target: string;
  headers: HeaderList;
  body: Buffer | undefined;
  /** `Authorization` from the URL's userinfo, sent unless `headers` has one (prepared.ts). */
  userinfoAuthorization?: string | undefined;
  /** This attempt's own bound in ms when shorter than the transport's `requestTimeoutMs` (a sync action's answer is due). */
  timeoutMs?: number;
}

export interface WireResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** Header names and values as received (names in their own case), for the sync actions' answers. */
  rawHeaders?: string[];
  body: Buffer;
}

export interface TransportOptions {
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  ca?: string;
  /**
   * false: server certificates are not checked (`rejectUnauthorized: false`), for the requests of
   * this transport only — the sync actions' `api.ssl_verify: false` (spec 05 §4.2 step 9).
   */
  verifyCertificates?: boolean;
  cert?: string;
  key?: string;
  /** Opens the connection (e.g. through an SSH tunnel) instead of a direct TCP connect. */
  connect?: (host: string, port: number) => Promise<Duplex>;
}

/*
 * Node's modules are taken from process.getBuiltinModule, not imported: an ES `import` of
 * node:http builds its full export list, undici's fetch included (~30 ms of every start-up), and
 * https/tls/zlib are loaded only by runs that use them.
 */
const httpLib = process.getBuiltinModule('node:http');
const httpsLib = (): typeof https => process.getBuiltinModule('node:https');

/** curl's limit on the response header block (Node's default is 16 KiB). */
const MAX_HEADER_BYTES = 100 * 1024;

const TLS_VERIFY = /^(UNABLE_TO_|SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED|CERT_|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)/;

/** Maps a Node network error to the curl number the reference would have reported. */
export function classify(err: NodeJS.ErrnoException, host: string, port: number, received: number, elapsedMs: number): CurlError {
  const code = err.code ?? '';
  if (code === 'ETIMEOUT_CONNECT') return new CurlError(28, `Connection timed out after ${elapsedMs} milliseconds`, received, err);
  if (code === 'ETIMEOUT_REQUEST')
    return new CurlError(28, `Operation timed out after ${elapsedMs} milliseconds with ${received} bytes received`, received, err);
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL'].includes(code))
    return new CurlError(6, `Could not resolve host: ${host}`, received, err);
  if (['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'].includes(code)) {
    return new CurlError(7, `Failed to connect to ${host} port ${port}: Connection refused`, received, err);
  }
  if (code === 'ETIMEDOUT') return new CurlError(28, `Connection timed out after ${elapsedMs} milliseconds`, received, err);
  if (TLS_VERIFY.test(code)) return new CurlError(60, `SSL certificate problem: ${err.message}`, received, err);
  if (code === 'EPROTO' || code.startsWith('ERR_SSL') || code === 'ERR_TLS_HANDSHAKE_TIMEOUT') {
    return new CurlError(35, `OpenSSL SSL_connect: ${err.message}`, received, err);
  }
  if (code === 'ERR_OSSL_PEM_NO_START_LINE' || code.startsWith('ERR_OSSL')) {
    return new CurlError(58, `could not load PEM client certificate: ${err.message}`, received, err);
  }
  // curl refuses such headers with CURLE_OUT_OF_MEMORY (27), which no retry policy lists by default:
  // the same server sends the same headers again.
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new CurlError(
      27,
      `Rejected the response headers: larger than ${MAX_HEADER_BYTES} bytes (max is ${MAX_HEADER_BYTES})`,
      received,
      err,
    );
  }
  if (received === 0) return new CurlError(52, 'Empty reply from server', received, err);
  return new CurlError(56, 'Recv failure: Connection reset by peer', received, err);
}

function timeoutError(code: string): NodeJS.ErrnoException {
  const e = new Error(code) as NodeJS.ErrnoException;
  e.code = code;
  return e;
}

/** Largest response body accepted, compressed or not: a hostile body must not exhaust memory. */
export const MAX_BODY_BYTES = 512 * 1024 * 1024;

function tooLarge(received: number): CurlError {
  return new CurlError(63, `Maximum file size exceeded: the response is larger than ${MAX_BODY_BYTES} bytes`, received);
}

function decompress(body: Buffer, encoding: string | undefined): Buffer {
  // Node's zlib returns Buffer<ArrayBufferLike>; callers only read it.
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === '') return body;
  const zlib = process.getBuiltinModule('node:zlib');
  const limit = { maxOutputLength: MAX_BODY_BYTES };
  try {
    if (enc === 'gzip' || enc === 'x-gzip') return zlib.gunzipSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH, ...limit });
    if (enc === 'deflate') {
      try {
        return zlib.inflateSync(body, limit);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw e;
        return zlib.inflateRawSync(body, limit);
      }
    }
    if (enc === 'br') return zlib.brotliDecompressSync(body, limit);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(body.length);
    throw e;
  }
  return body;
}

/**
 * A response body as it arrives. With a Content-Length the body is copied into one buffer of that
 * size: collecting the chunks and concatenating them at the end held every byte twice at that
 * moment (a 30 MB page: 60 MB).
 */
class BodyBuffer {
  private buf: Buffer | undefined;
  private filled = 0;
  private readonly chunks: Buffer[] = [];

  constructor(contentLength: string | undefined) {
    const n = Number(contentLength);
    if (contentLength !== undefined && Number.isSafeInteger(n) && n > 0 && n <= MAX_BODY_BYTES) this.buf = Buffer.allocUnsafe(n);
  }

  add(c: Buffer): void {
    if (this.buf !== undefined && this.filled + c.length <= this.buf.length) {
      c.copy(this.buf, this.filled);
      this.filled += c.length;
      return;
    }
    // More than announced (Node's parser stops at Content-Length, so this is defensive only).
    if (this.buf !== undefined) this.chunks.push(this.buf.subarray(0, this.filled));
    this.buf = undefined;
    this.chunks.push(c);
  }

  take(): Buffer {
    if (this.buf !== undefined) return this.filled === this.buf.length ? this.buf : this.buf.subarray(0, this.filled);
    return Buffer.concat(this.chunks);
  }
}

export class Transport {
  private readonly httpAgent: http.Agent;
  /** Created at the first https request. */
  private httpsAgent: https.Agent | undefined;
  private readonly options: TransportOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    this.httpAgent = new httpLib.Agent({ keepAlive: true, maxSockets: 64 });
  }

  private secureAgent(): https.Agent {
    if (this.httpsAgent) return this.httpsAgent;
    const tls: https.AgentOptions = { keepAlive: true, maxSockets: 64 };
    if (this.options.ca !== undefined) tls.ca = this.options.ca;
    if (this.options.verifyCertificates === false) tls.rejectUnauthorized = false;
    if (this.options.cert !== undefined) tls.cert = this.options.cert;
    if (this.options.key !== undefined) tls.key = this.options.key;
    this.httpsAgent = new (httpsLib().Agent)(tls);
    return this.httpsAgent;
  }

  /**
   * Ends the sockets. `idleToo: false` (the command, whose process ends with the run) leaves the
   * idle keep-alive ones to the process's end: Node's agent has unref'd them, so they hold nothing
   * open, and destroying a socket creates `process.stderr` (net's `_destroy` compares against it),
   * a stream the run never writes to (docs/performance.md, "Small jobs, round three"). Sockets
   * still in use are always destroyed.
   */
  close(idleToo = true): void {
    for (const agent of [this.httpAgent, this.httpsAgent]) {
      if (agent === undefined) continue;
      if (idleToo) agent.destroy();
      else for (const sockets of Object.values(agent.sockets)) for (const socket of sockets ?? []) socket.destroy();
    }
  }

  send(req: WireRequest): Promise<WireResponse> {
    const started = Date.now();
    const lib = req.scheme === 'https' ? httpsLib() : httpLib;
    let received = 0;
    return new Promise<WireResponse>((resolve, reject) => {
      let settled = false;
      const fail = (err: NodeJS.ErrnoException): void => {
        if (settled) return;
        settled = true;
        clearTimeout(totalTimer);
        clearTimeout(connectTimer);
        reject(err instanceof CurlError ? err : classify(err, req.host, req.port, received, Date.now() - started));
      };
      const requestOptions: https.RequestOptions = {
        method: req.method,
        host: req.host.startsWith('[') ? req.host.slice(1, -1) : req.host,
        port: req.port,
        path: req.target,
        headers: (req.userinfoAuthorization !== undefined && !req.headers.has('authorization')
          ? [...req.headers.toRaw(), 'Authorization', req.userinfoAuthorization]
          : req.headers.toRaw()) as unknown as http.OutgoingHttpHeaders,
        setHost: false,
        agent: req.scheme === 'https' ? this.secureAgent() : this.httpAgent,
        servername: /^[\d.]+$|^\[/.test(req.host) ? undefined : req.host,
        maxHeaderSize: MAX_HEADER_BYTES,
      };
      if (this.options.connect) {
        const open = this.options.connect;
        // Without an agent Node uses createConnection; `agent: false` would bypass it.
        delete requestOptions.agent;
        requestOptions.createConnection = ((_opts: unknown, cb: (err: Error | null, socket?: Duplex) => void) => {
          // A tunnelled connection is plain TCP: TLS is layered on it here for https targets.
          const secure = (s: Duplex): Duplex =>
            req.scheme !== 'https'
              ? s
              : process.getBuiltinModule('node:tls').connect({
                  socket: s,
                  ...(requestOptions.servername !== undefined ? { servername: requestOptions.servername } : {}),
                  ...(this.options.ca !== undefined ? { ca: this.options.ca } : {}),
                  ...(this.options.verifyCertificates === false ? { rejectUnauthorized: false } : {}),
                  ...(this.options.cert !== undefined ? { cert: this.options.cert } : {}),
                  ...(this.options.key !== undefined ? { key: this.options.key } : {}),
                });
          open(req.host, req.port).then(
            (s) => cb(null, secure(s)),
            (e: Error) => cb(e),
          );
          return undefined;
        }) as unknown as https.RequestOptions['createConnection'];
      }
      const request = lib.request(requestOptions, (res) => {
        clearTimeout(connectTimer);
        const body = new BodyBuffer(res.headers['content-length']);
        res.on('data', (c: Buffer) => {
          received += c.length;
          if (received > MAX_BODY_BYTES) {
            const error = tooLarge(received);
            fail(error);
            request.destroy(error);
            return;
          }
          body.add(c);
        });
        res.on('error', (e) => fail(e as NodeJS.ErrnoException));
        res.on('aborted', () => fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
        res.on('end', () => {
          if (settled) return;
          if (!res.complete) {
            fail(Object.assign(new Error('premature close'), { code: 'ECONNRESET' }));
            return;
          }
          settled = true;
          clearTimeout(totalTimer);
          let bytes: Buffer = body.take();
          try {
            bytes = decompress(bytes, res.headers['content-encoding'] as string | undefined);
          } catch (e) {
            reject(
              e instanceof CurlError
                ? e
                : new CurlError(61, `Error while processing content unencoding: ${(e as Error).message}`, received, e),
            );
            return;
          }
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: bytes,
          });
        });
      });
      const totalMs = Math.min(this.options.requestTimeoutMs, req.timeoutMs ?? Number.POSITIVE_INFINITY);
      const totalTimer = setTimeout(() => {
        request.destroy(timeoutError('ETIMEOUT_REQUEST'));
      }, totalMs);
      const connectTimer = setTimeout(() => {
        request.destroy(timeoutError('ETIMEOUT_CONNECT'));
      }, this.options.connectTimeoutMs);
      // Node keeps 1000 response headers by default and drops the rest silently (issue 32 #8); the
      // header block is bounded in bytes instead (MAX_HEADER_BYTES), as curl bounds it.
      request.maxHeadersCount = 0;
      request.on('socket', (socket) => {
        const connected = (): void => clearTimeout(connectTimer);
        if ((socket as { connecting?: boolean }).connecting) socket.once(req.scheme === 'https' ? 'secureConnect' : 'connect', connected);
        else connected();
      });
      request.on('error', (e) => fail(e as NodeJS.ErrnoException));
      if (req.body !== undefined) request.end(req.body);
      else request.end();
    });
  }
}
