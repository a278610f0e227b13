/**
 * `perform_function` (spec 05 §8): evaluates `parameters.__FUNCTION_CFG` with the helper's
 * function catalogue (helperFunctions.ts) against the user parameters; answers
 * `{"result": ⟨value⟩}`.
 */
import { dict } from './pythonValues.ts';
import { evaluateExpression } from './dialect.ts';
import { keyError } from './envelope.ts';
import { registerSyncAction } from './registry.ts';
import { maskSecretsInValue, secretsOf } from './secrets.ts';

registerSyncAction({
  name: 'perform_function',
  description:
    'Evaluates one user-function expression (the UI builder\'s function preview) and answers {"result": value}. ' +
    "The catalogue is the helper's: hash_hmac(algo, key, message), ifempty returning null for a non-empty test, Python sprintf, string_to_date.",
  inputs: {
    __FUNCTION_CFG: 'The expression, such as `{"function": "md5", "args": [{"attr": "#token"}]}`; `attr` reads `parameters.config`.',
  },
  answer: '`{"result": value}`, the value with its JSON type; secrets in it are shown as `--HIDDEN--`.',
  async run(ctx) {
    const expression = ctx.configuration.own.get('__FUNCTION_CFG');
    if (expression === undefined) throw keyError('__FUNCTION_CFG');
    const result = evaluateExpression(expression, ctx.user, ctx.env);
    // The reference answers secrets (a `#` attribute) in clear; the UI never shows decrypted values,
    // so they are masked as test_request masks them (strings inside the result, in any encoding).
    return dict([['result', maskSecretsInValue(result, secretsOf(ctx))]]);
  },
});
