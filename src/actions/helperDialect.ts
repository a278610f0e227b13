/**
 * The helper's value semantics handed to src/auth's sync-action methods (auth sits below the
 * actions, so it cannot import them): Python `str`, truthiness, form encoding, the "fill" of
 * spec 05 §2.3 and the envelope's error classes.
 */
import type { HelperDialect, HelperErrorKind } from '../auth/helper.ts';
import { type ActionEnv, evaluateExpression, fill } from './dialect.ts';
import { HelperError, PY } from './envelope.ts';
import { formEncode } from './helperHttp.ts';
import { pythonJson, pythonStr, pythonTruthy } from './pythonValues.ts';

const CLASSES: Record<HelperErrorKind, string> = {
  value: PY.value,
  type: PY.type,
  httpError: PY.httpError,
  jsonDecode: PY.jsonDecode,
};

export function helperDialect(env: ActionEnv): HelperDialect {
  return {
    str: pythonStr,
    truthy: pythonTruthy,
    formEncode,
    jsonText: pythonJson,
    fill: (fragment, user, evaluateFunctions) => fill(fragment, user, env, evaluateFunctions),
    evaluate: (expression, user) => evaluateExpression(expression, user, env),
    error: (kind, message) => new HelperError(CLASSES[kind], message),
  };
}
