/**
 * docs/pagination.md, docs/authentication.md and docs/functions.md from the registries: each
 * pagination method, authentication type and user function registers a spec with its description
 * and an example (src/pagination/*.ts, src/auth/*.ts, src/functions/*.ts). The option table of a
 * pagination method or an authentication type comes from its spec's schema nodes, the same nodes
 * the configuration schema's variant is assembled from. Function examples are evaluated here, so
 * the result shown is what the extractor computes.
 */
import { authMethodTypes, getAuthMethod } from '../../src/auth/registry.ts';
import { evaluate, flattenContext, listFunctions } from '../../src/functions/index.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { pjson } from '../../src/php/jsonEncode.ts';
import { paginationMethodSpecs, STOP_CONDITION_OPTIONS } from '../../src/pagination/index.ts';
import '../../src/auth/index.ts';
import { jsonBlock, type Node, userText } from './markdown.ts';
import { optionRows, optionTable, useDefinitions } from './schemaDocs.ts';

function header(title: string, intro: string[]): string[] {
  return [
    `# ${title}`,
    '',
    '<!-- Generated from the registries and src/config/schema.ts by `npm run docs`; do not edit by hand. -->',
    '',
    ...intro,
    '',
  ];
}

export function renderPaginationPage(schema: Node): string {
  useDefinitions(schema);
  const out = header('Pagination methods', [
    'Set in `parameters.api.pagination`; `method` picks one of the methods below. Without',
    'pagination every job sends one request. The method applies to every job, child jobs',
    'included; with `multiple`, each job picks a method by name. Back to the',
    '[configuration reference](configuration.md).',
  ]);
  const path = 'parameters.api.pagination';
  for (const spec of paginationMethodSpecs()) {
    out.push(`## \`${spec.method}\``, '', userText(spec.description), '');
    const rows = optionRows({ properties: spec.options }, path);
    if (rows.length > 0) out.push(...optionTable(rows), '');
    out.push('Example:', '', ...jsonBlock({ pagination: spec.example.pagination }), '', `Sends: ${spec.example.sends}`, '');
  }
  out.push('## Stop conditions (any method)', '', 'Any method may also carry these; the first one met ends the job.', '');
  out.push(...optionTable(optionRows({ properties: STOP_CONDITION_OPTIONS }, path)), '');
  out.push(
    '## Warnings while paging',
    '',
    'When page 2 is identical to page 1 the extractor stops (as the reference does) and prints a',
    'WARNING naming the parameter the API seems to ignore, for example',
    "`page 2 is identical to page 1 … The API likely ignores the paging parameter 'page'`: check",
    'the parameter name the API expects (`pageParam`, `offsetParam`, …). When only the records',
    'repeat (the responses differ by a timestamp, say), paging goes on as in the reference, with the',
    'same WARNING at page 2. A request repeated a third time in a row stops the job with a WARNING',
    'instead of looping forever.',
    '',
  );
  return out.join('\n');
}

export function renderAuthenticationPage(schema: Node): string {
  useDefinitions(schema);
  const out = header('Authentication types', [
    'Set in `parameters.api.authentication`; `type` picks one of the types below. Credentials',
    'usually live in `parameters.config` under keys starting with `#` (encrypted by the platform,',
    'never printed in logs) and are read with `{"attr": "#name"}`. OAuth types read the',
    'authorization the platform stores in `authorization.oauth_api.credentials`. Without',
    '`authentication`, headers in `parameters.api.http.headers` can carry a token too (the debug',
    'log then says which header carries the credentials). Back to the',
    '[configuration reference](configuration.md).',
  ]);
  for (const type of authMethodTypes()) {
    const spec = getAuthMethod(type);
    out.push(`## \`${type}\``, '', userText(spec.description), '');
    const rows = optionRows({ properties: spec.options }, 'parameters.api.authentication');
    if (rows.length > 0) out.push(...optionTable(rows), '');
    const example: Record<string, unknown> = {};
    if (spec.example.authorization) example['authorization'] = spec.example.authorization;
    example['parameters'] = {
      api: { baseUrl: 'https://api.example.com/v1/', authentication: spec.example.authentication },
      config: { ...(spec.example.config ?? {}), jobs: [{ endpoint: 'users' }] },
    };
    out.push('Example `config.json`:', '', ...jsonBlock(example), '', `Sends: ${spec.example.sends}`, '');
  }
  return out.join('\n');
}

/** The clock of the evaluated examples: 2024-05-01 12:00:00 UTC. */
const EXAMPLE_NOW_MS = Date.UTC(2024, 4, 1, 12, 0, 0);

function resultOf(args: unknown[], name: string, attr: Record<string, unknown>): string {
  const call = decodeJson(JSON.stringify({ function: name, args }), 'config');
  const result = evaluate(
    call,
    { attr: flattenContext(decodeJson(JSON.stringify(attr), 'config')) },
    { now: () => EXAMPLE_NOW_MS, allowUrlencode: true },
  );
  return pjson(result, 'shortest').replaceAll('\\/', '/');
}

export function renderFunctionsPage(): string {
  const out = header('User functions', [
    'Many values (headers, job `params`, `baseUrl`, placeholders, login requests) may be a user',
    'function instead of a literal: `{"function": "name", "args": [...]}`. Arguments are literals or',
    'values read from a context: `{"attr": "name"}` reads `parameters.config.name` (nested keys',
    'joined with `.`), `{"time": "previousStart"}` / `{"time": "currentStart"}` the Unix time of the',
    'previous and the current run; login requests and OAuth add `response`, `user`, `consumer`,',
    '`authorization`, and placeholders `placeholder`. Functions nest. The result of each example',
    'below is computed by the extractor itself (with the clock at 2024-05-01 12:00:00 UTC). Back to',
    'the [configuration reference](configuration.md).',
  ]);
  const groups = new Map<string, ReturnType<typeof listFunctions>>();
  for (const spec of listFunctions()) groups.set(spec.group, [...(groups.get(spec.group) ?? []), spec]);
  for (const [group, specs] of groups) {
    out.push(`## ${group[0]!.toUpperCase()}${group.slice(1)} functions`, '');
    for (const spec of specs) {
      out.push(`### \`${spec.name}\``, '', userText(spec.description), '');
      if (spec.placeholderOnly) out.push('Only in `placeholders` of child jobs.', '');
      const call = { function: spec.name, args: spec.example.args };
      out.push('Example:', '', ...jsonBlock(call), '');
      if (spec.example.attr) out.push(`with \`parameters.config\` = \`${JSON.stringify(spec.example.attr)}\``, '');
      out.push(`gives \`${resultOf(spec.example.args, spec.name, spec.example.attr ?? {})}\`.`, '');
    }
  }
  return out.join('\n');
}
