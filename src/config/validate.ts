/**
 * Schema validation with ajv. The schema carries the reference's messages (`x-error`);
 * the first failing check wins, which reproduces the reference's evaluation order because
 * the schema lists its checks in that order (allOf is evaluated in order, ajv stops at the
 * first error).
 *
 * The validate functions are ajv's standalone code, generated from the schema ahead of time
 * (scripts/validators.ts), so no run compiles the schema or loads ajv's compiler.
 */
import type { ErrorObject } from 'ajv';
import * as generated from './validators.generated.ts';
import { childPath, itemPath } from '../errors/configPath.ts';
import { UserError } from '../errors/UserError.ts';
import { PhpFloat, type Value } from '../php/value.ts';
import { varExport } from '../php/varExport.ts';

/** The shape of an ajv validate function (the generated module is not type-checked). */
interface Validate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

const validators = generated as unknown as { config: Validate; api: Validate };

/** The plain-JSON view ajv works on (PHP arrays of either kind become objects or arrays). */
export function toPlain(v: Value | undefined): unknown {
  if (v === undefined) return undefined;
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof PhpFloat) return v.value;
  if (Array.isArray(v)) return v.map(toPlain);
  const out: Record<string, unknown> = {};
  for (const [k, child] of v) out[k] = toPlain(child);
  return out;
}

function segments(instancePath: string): string[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** `parameters.config.jobs[0].children[1]` style. */
export function formatPath(prefix: string, segs: readonly string[]): string {
  let out = prefix;
  for (const s of segs) out = /^\d+$/.test(s) ? itemPath(out, s) : childPath(out, s);
  return out;
}

function valueAt(root: Value | undefined, segs: readonly string[]): Value | undefined {
  let cur = root;
  for (const s of segs) {
    if (Array.isArray(cur)) cur = cur[Number(s)];
    else if (cur instanceof Map) cur = cur.get(s);
    else return undefined;
  }
  return cur;
}

function toUserError(errors: ErrorObject[], root: Value | undefined, prefix: string): UserError {
  const last = errors[errors.length - 1]!;
  const segs = segments(last.instancePath);
  if (last.keyword === 'required') segs.push(String((last.params as { missingProperty: string }).missingProperty));
  const template = (last.parentSchema as Record<string, unknown> | undefined)?.['x-error'];
  const path = formatPath(prefix, segs);
  const message =
    typeof template === 'string'
      ? template.replace('{value}', () => varExport(valueAt(root, segments(last.instancePath))))
      : `Invalid configuration at ${path}: ${last.message ?? 'invalid value'}`;
  return new UserError(message, { configPath: path });
}

/** Group B of spec 01 §2.4 for one configuration (`parameters.config` after the iteration merge). */
export function validateConfigSection(config: Value | undefined, pathPrefix: string): void {
  const validate = validators.config;
  if (!validate(toPlain(config ?? null))) throw toUserError(validate.errors ?? [], config, pathPrefix);
}

/** Type checks of `parameters.api` that the schema expresses (C2, C3). */
export function validateApiSection(api: Value | undefined, pathPrefix: string): void {
  const validate = validators.api;
  if (!validate(toPlain(api ?? null))) throw toUserError(validate.errors ?? [], api, pathPrefix);
}
