/**
 * `test_request` (spec 05 §5): runs the selected job chain and answers the reported response,
 * the request that produced it, the records and a debug log, with secrets masked (§5.3). An
 * HTTP error status is an answer, not a failure.
 */
import type { Value } from '../php/value.ts';
import type { ActionContext } from './context.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import { dict } from './pythonValues.ts';
import { registerSyncAction } from './registry.ts';
import { runChain } from './requestEngine.ts';
import { maskSecretsInValue, secretMasker, secretsOf } from './secrets.ts';

function bodyValue(text: string): Value {
  try {
    return decodeJson(text, 'response');
  } catch {
    return text;
  }
}

export async function testRequest(ctx: ActionContext): Promise<Value> {
  const { response, records, body } = await runChain(ctx);
  const secrets = secretsOf(ctx);
  const mask = secretMasker(secrets);
  const maskedHeaders = (headers: [string, string][]) => dict(headers.map(([n, v]) => [mask(n), mask(v)] as const));
  return dict([
    [
      'response',
      dict([
        ['status_code', response!.status],
        ['reason', mask(response!.reason)],
        // Masked too, unlike the reference (spec 05 §5.3): an API that echoes a token must not show it on a UI screen.
        ['data', maskSecretsInValue(body !== undefined ? body : bodyValue(response!.text), secrets)],
        ['headers', maskedHeaders(response!.headers)],
      ]),
    ],
    [
      'request',
      dict([
        // Masked too: a safe deviation the spec allows (§5.3), tokens in query strings stay hidden.
        ['url', mask(response!.request.url)],
        ['method', response!.request.method],
        ['data', response!.request.body === null || response!.request.body === '' ? null : mask(response!.request.body)],
        ['headers', maskedHeaders(response!.request.headers)],
      ]),
    ],
    ['records', maskSecretsInValue(records, secrets)],
    ['debug_log', mask(ctx.debugLog.map((l) => `${l}\n`).join(''))],
  ]);
}

registerSyncAction({
  name: 'test_request',
  description:
    'Runs the job chain selected by parameters.__SELECTED_JOB (first page only, at most 20 parents per level) and answers ' +
    '{"response", "request", "records", "debug_log"}, secrets shown as --HIDDEN--. Also the action run for "action": "".',
  inputs: {
    __SELECTED_JOB:
      'The job to run, as its path in the job tree: `"0"` is the first job, `"0_1"` its second child. The jobs on the way run first (at most 20 parents per level), each for its first page only.',
  },
  answer:
    '`{"response": {"status_code", "reason", "data", "headers"}, "request": {"url", "method", "data", "headers"}, "records", "debug_log"}`: the last request sent and its response, the records its data selector finds, and a log of the requests. An HTTP error status is answered, not raised.',
  run: testRequest,
});
