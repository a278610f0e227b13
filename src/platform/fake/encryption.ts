/**
 * The fake Encryption API (06 §3): `POST /encrypt?componentId&projectId[&configId]`, JSON or
 * text/plain, no token. Ciphers are random and remembered with their scope, so the fake queue can
 * tell whether a job may decrypt them, as the real runner would.
 */
import { randomBytes } from 'node:crypto';
import { json, type FakeRequest, type FakeResponse } from './http.ts';

export interface CipherScope {
  componentId: string | undefined;
  projectId: string | undefined;
  configId: string | undefined;
}

const KNOWN_CIPHER = /^KBC::.+Secure.*::.+$/s;

export class FakeEncryption {
  readonly #plain = new Map<string, { value: string; scope: CipherScope }>();

  handle(req: FakeRequest): FakeResponse {
    if (req.method !== 'POST' || req.path !== '/encrypt') return json(404, { error: 'Route not found', code: 404, status: 'error' });
    const componentId = req.query.get('componentId') ?? undefined;
    const projectId = req.query.get('projectId') ?? undefined;
    const configId = req.query.get('configId') ?? undefined;
    if (componentId === undefined && projectId === undefined) return this.#error(400, 'Either "componentId" or "projectId" is required.');
    if (configId !== undefined && projectId === undefined)
      return this.#error(400, 'The "configId" parameter is not allowed without "projectId".');
    const scope = { componentId, projectId, configId };
    if (req.contentType === 'text/plain') return { status: 200, body: this.#encrypt(req.body, scope), contentType: 'text/plain' };
    if (req.contentType !== 'application/json') return this.#error(400, 'Content-Type must be application/json or text/plain.');
    let data: unknown;
    try {
      data = JSON.parse(req.body);
    } catch {
      return this.#error(400, 'Malformed JSON body.');
    }
    return json(200, this.#walk(data, scope, false));
  }

  /** The plain value of a cipher, if `scope` may decrypt it (component, project, configuration). */
  decrypt(cipher: string, scope: CipherScope): string | undefined {
    const known = this.#plain.get(cipher);
    if (known === undefined) return undefined;
    if (known.scope.componentId !== undefined && known.scope.componentId !== scope.componentId) return undefined;
    if (known.scope.projectId !== undefined && known.scope.projectId !== scope.projectId) return undefined;
    if (known.scope.configId !== undefined && known.scope.configId !== scope.configId) return undefined;
    return known.value;
  }

  #encrypt(value: string, scope: CipherScope): string {
    // A cipher (or a whole-value variable reference) comes back unchanged (D-ENC, OE).
    if (KNOWN_CIPHER.test(value) || /^\{\{[^}]+\}\}$/.test(value)) return value;
    const kind = this.#kind(scope);
    const cipher = `KBC::${kind}::${randomBytes(18).toString('base64')}`;
    this.#plain.set(cipher, { value, scope });
    return cipher;
  }

  /** The cipher's prefix by scope (D-ENC, OE). */
  #kind(scope: CipherScope): string {
    if (scope.componentId === undefined) return 'ProjectWideSecure';
    if (scope.configId !== undefined) return 'ConfigSecure';
    return scope.projectId !== undefined ? 'ProjectSecure' : 'ComponentSecure';
  }

  /** Every scalar under a `#` key, at any depth, is encrypted; an object under a `#` key is walked. */
  #walk(value: unknown, scope: CipherScope, secret: boolean): unknown {
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, scope, secret));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.#walk(v, scope, k.startsWith('#'))]));
    if (!secret || value === null) return value;
    return this.#encrypt(String(value), scope);
  }

  #error(status: number, error: string): FakeResponse {
    return json(status, { error, code: status, exceptionId: `encryption-${status}`, status: 'error' });
  }
}
