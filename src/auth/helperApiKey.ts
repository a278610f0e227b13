/**
 * The sync actions' `api-key` (spec 05 §2.5, the UI builder's own method): the token
 * `config.#__AUTH_TOKEN` under the name of the default header (else default query parameter)
 * whose value is exactly `{"attr": "#__AUTH_TOKEN"}`; the header wins when both exist.
 */
import type { PreparedRequest } from '../http/prepared.ts';
import { decodeQueryPart } from '../http/withhold.ts';
import type { Value } from '../php/value.ts';
import { type HelperDialect, objectAt, registerHelperAuthMethod, replaceAuthHeader } from './helperRegistry.ts';

/** The entry whose value is exactly `{"attr": "#__AUTH_TOKEN"}`. */
function tokenEntryName(entries: Map<string, Value>): string | undefined {
  for (const [name, v] of entries) {
    if (v instanceof Map && v.size === 1 && v.get('attr') === '#__AUTH_TOKEN') return name;
  }
  return undefined;
}

/** Sets or replaces one query parameter; the query is re-encoded, as `requests` does. */
function setQueryParameter(request: PreparedRequest, name: string, value: string, dialect: HelperDialect): void {
  const pairs: [string, Value][] = [];
  for (const part of (request.url.query ?? '').split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    pairs.push(eq < 0 ? [decodeQueryPart(part), ''] : [decodeQueryPart(part.slice(0, eq)), decodeQueryPart(part.slice(eq + 1))]);
  }
  const at = pairs.findIndex(([k]) => k === name);
  if (at >= 0) pairs[at] = [name, value];
  else pairs.push([name, value]);
  request.url.query = dialect.formEncode(pairs);
}

registerHelperAuthMethod({
  types: ['api-key'],
  description:
    '`config.#__AUTH_TOKEN` as the header (or query parameter) of `api.http.headers` (or `api.http.defaultOptions.params`) whose value is `{"attr": "#__AUTH_TOKEN"}`.',
  create({ config, api, dialect }) {
    const token = dialect.str(config.get('#__AUTH_TOKEN') ?? '');
    const http = objectAt(api, 'http');
    const header = tokenEntryName(objectAt(http, 'headers'));
    const query = tokenEntryName(objectAt(objectAt(http, 'defaultOptions'), 'params'));
    return {
      secrets: () => [token],
      async authenticate(request) {
        if (header !== undefined) return replaceAuthHeader(request, header, token);
        if (query === undefined) throw dialect.error('value', 'Unsupported position None for API Key auth method');
        setQueryParameter(request, query, token, dialect);
      },
    };
  },
});
