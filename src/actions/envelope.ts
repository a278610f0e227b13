/**
 * Errors of a sync action and the exception envelope (spec 05 §1.3–§1.4). The helper catches
 * every exception inside an action and prints it as `{"status": "exception", "traceback": […]}`
 * with exit code 0; the UI reads the last traceback element, `⟨Class⟩: ⟨message⟩\n`. Python
 * frames cannot be reproduced, so the frames between the first and the last element are ours.
 */
import { dict, pythonRepr } from './pythonValues.ts';
import type { JsonObject } from '../php/value.ts';

/** The class names the helper's envelope shows (§1.4 table). */
export const PY = {
  user: 'keboola.component.exceptions.UserException',
  placeholder: 'placeholders_utils.UserException',
  value: 'ValueError',
  key: 'KeyError',
  index: 'IndexError',
  type: 'TypeError',
  attribute: 'AttributeError',
  jsonDecode: 'requests.exceptions.JSONDecodeError',
  httpError: 'requests.exceptions.HTTPError',
  structure: 'keboola.json_to_csv.exceptions.JsonParserException',
} as const;

/** An error raised the way the helper raises it: a Python class name and its message. */
export class HelperError extends Error {
  readonly pythonClass: string;
  constructor(pythonClass: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HelperError';
    this.pythonClass = pythonClass;
  }
}

/** `KeyError('name')` prints its argument as a repr: `KeyError: 'name'`. */
export function keyError(name: string): HelperError {
  return new HelperError(PY.key, pythonRepr(name));
}

export function userError(message: string): HelperError {
  return new HelperError(PY.user, message);
}

export function valueError(message: string): HelperError {
  return new HelperError(PY.value, message);
}

/** Python class name for an error that was not raised as a HelperError (a bug on our side). */
function classOf(error: unknown): string {
  if (error instanceof HelperError) return error.pythonClass;
  if (error instanceof TypeError) return 'TypeError';
  if (error instanceof RangeError) return 'ValueError';
  return 'Exception';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The envelope for an error. The middle element names the action, in the frame format the UI
 * already shows, so a reader sees where it failed; no JavaScript stack is ever included.
 */
export function exceptionEnvelope(error: unknown, action: string, mask: (text: string) => string = (t) => t): JsonObject {
  const traceback = [
    'Traceback (most recent call last):\n',
    `  File "ex-generic sync action", line 1, in ${action || 'test_request'}\n`,
    `${classOf(error)}: ${mask(messageOf(error))}\n`,
  ];
  return dict([
    ['status', 'exception'],
    ['traceback', traceback],
  ]);
}
