/**
 * docs/actions.md from the registries: each sync action's spec (src/actions/*.ts: description,
 * inputs, answer), the configuration keys every action reads (src/actions/dialect.ts), the
 * sync actions' authentication methods (src/auth/helper*.ts) and how each pagination method
 * gives the first page (src/pagination/*.ts).
 */
import { helperAuthMethodSpecs } from '../../src/auth/helper.ts';
import { syncActionSpecs } from '../../src/actions/index.ts';
import { DIALECT_INPUTS } from '../../src/actions/dialect.ts';
import { paginationMethodSpecs } from '../../src/pagination/index.ts';
import { cell, code, table, userText } from './markdown.ts';

function inputTable(inputs: Readonly<Record<string, string>>): string[] {
  return table(
    ['Key', 'Meaning'],
    Object.entries(inputs).map(([key, meaning]) => [code(key), cell(userText(meaning))]),
  );
}

function actionSections(): string[] {
  const out: string[] = [];
  for (const spec of syncActionSpecs()) {
    out.push(`## \`${spec.name}\``, '', userText(spec.description), '');
    out.push(...inputTable(Object.fromEntries(Object.entries(spec.inputs).map(([k, v]) => [`parameters.${k}`, v]))), '');
    out.push(`Answer: ${userText(spec.answer)}`, '');
  }
  return out;
}

function authenticationSection(): string[] {
  const rows = [['none, `""` or `custom`', 'Nothing is added; credentials written in headers are sent as written.']];
  for (const spec of helperAuthMethodSpecs()) rows.push([spec.types.map(code).join(', '), cell(userText(spec.description))]);
  return [
    '## Authentication',
    '',
    'The method is `parameters.config.__AUTH_METHOD`, else `parameters.api.authentication.type`. Credentials are',
    'sent only to the origins they were configured for (the base URL, the login endpoint, absolute job',
    'endpoints, `api.credentialOrigins`): a redirect to another scheme, host or port goes without them.',
    '',
    ...table(['Method', 'What every request gets'], rows),
    '',
  ];
}

function paginationSection(): string[] {
  const rows = paginationMethodSpecs().map((spec) => [
    code(spec.method),
    spec.helperFirstPage ? "the reference helper's own first-page parameters" : "the run's first request",
  ]);
  return [
    '## Pagination',
    '',
    'Only the first page is requested. A job with `scroller` uses that entry of `api.pagination.scrollers`; a job',
    'without it uses `api.pagination` itself, or, with named scrollers, the `default` entry (or none), as a run does.',
    '',
    ...table(['Method', 'First page'], rows),
    '',
  ];
}

export function renderActionsPage(): string {
  return [
    '# Sync actions',
    '',
    '<!-- Generated from the registries by `npm run docs`; do not edit by hand. -->',
    '',
    'The platform\'s UI calls these while a configuration is edited: `"action"` in `config.json` names one, and the',
    'component prints one JSON answer on stdout and exits 0. A failure is answered too, as',
    '`{"status": "exception", "traceback": [...]}` whose last line is the error; an unknown action exits 2.',
    '`"action": ""` runs `test_request`. Nothing is written to `out/`. Secrets (`#` and `__` user parameters,',
    'credentials) are shown as `--HIDDEN--` wherever they stand as a value, in every part of an answer. Where the',
    'answers differ from the reference on purpose: [migration guide](migration.md).',
    '',
    '## What every action reads',
    '',
    ...inputTable(DIALECT_INPUTS),
    '',
    ...actionSections(),
    ...authenticationSection(),
    ...paginationSection(),
  ].join('\n');
}
