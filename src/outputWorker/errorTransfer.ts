/**
 * An error of the output worker's output phase crosses to the main thread as data
 * (`SerializedError`, protocol.ts) and is raised there as the class the worker's thread had: a
 * user error stays exit code 1 with its message and configuration path, as if the main thread had
 * written the tables itself.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import type { SerializedError } from './protocol.ts';

/** An error of the worker's thread, as data for the main thread. */
export function serializeError(e: unknown): SerializedError {
  const err = e instanceof Error ? e : new Error(String(e));
  const kind = err instanceof UserError ? 'user' : err instanceof ApplicationError ? 'application' : 'internal';
  const out: SerializedError = { kind, name: err.name, message: err.message };
  if (err instanceof UserError && err.configPath !== undefined) out.configPath = err.configPath;
  if (err.stack !== undefined) out.stack = err.stack;
  return out;
}

/** The error `serializeError` describes, as the class the thread that raised it had. */
export function deserializeError(e: SerializedError): Error {
  if (e.kind === 'user') return new UserError(e.message, e.configPath !== undefined ? { configPath: e.configPath } : {});
  if (e.kind === 'application') return new ApplicationError(e.message);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.stack !== undefined) err.stack = e.stack;
  return err;
}
