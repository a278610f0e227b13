/**
 * Pre-flight checks of values (part of preflight.ts): text that looks like a template or an
 * attribute reference but is sent literally, and mappings whose key matches no job's dataType.
 */
import { childPath } from '../errors/configPath.ts';
import { isMap, member, type Value } from '../php/value.ts';
import type { Configuration } from './configurations.ts';
import type { JobNode } from '../jobs/jobNode.ts';
import type { Finding } from './schemaWalk.ts';
import { nearest } from './suggest.ts';

/** `{name}` or `{{name}}` inside a parameter or header value: only endpoints are templates. */
const TEMPLATE = /\{\{?\s*#?[A-Za-z_][\w.#:-]*\s*\}\}?/;

/** `#name` as a word inside a value: the name of an encrypted attribute, sent as text. */
const SECRET_NAME = /(?:^|[\s:=])(#[A-Za-z_][\w.-]*)/;

function literalFindings(value: Value | undefined, path: string, attributes: ReadonlySet<string>, out: Finding[]): void {
  if (typeof value === 'string') {
    const token = TEMPLATE.exec(value)?.[0];
    if (token !== undefined) {
      out.push({
        path,
        message: `${path}: "${token}" is sent as it is: only job endpoints fill {placeholders}. Use a user function, e.g. {"function": "concat", "args": ["Bearer ", {"attr": "#token"}]}, or {"attr": "name"} for a config attribute.`,
      });
      return;
    }
    const name = SECRET_NAME.exec(value)?.[1];
    if (name !== undefined && attributes.has(name)) {
      const fix =
        value === name
          ? `{"attr": "${name}"}`
          : `{"function": "concat", "args": [${JSON.stringify(value.slice(0, value.indexOf(name)))}, {"attr": "${name}"}]}`;
      out.push({ path, message: `${path}: sends the text "${name}", not the value of the attribute ${name}. Write ${fix}.` });
    }
  } else if (isMap(value) && !value.has('function') && !value.has('attr')) {
    for (const [k, v] of value) literalFindings(v, childPath(path, k), attributes, out);
  }
}

/** Header, parameter and authentication values that are sent literally although they look like references. */
export function valueFindings(
  parameters: Value | undefined,
  configuration: Configuration,
  nodes: readonly JobNode[],
  out: Finding[],
): void {
  const attributes = new Set([...configuration.config.keys()].filter((k) => k !== 'jobs'));
  const api = member(parameters, 'api');
  const auth = member(api, 'authentication');
  literalFindings(member(member(api, 'http'), 'headers'), 'parameters.api.http.headers', attributes, out);
  literalFindings(member(configuration.config.get('http'), 'headers'), `${configuration.pathOf('http')}.headers`, attributes, out);
  literalFindings(member(auth, 'query'), 'parameters.api.authentication.query', attributes, out);
  literalFindings(member(auth, 'headers'), 'parameters.api.authentication.headers', attributes, out);
  literalFindings(member(member(auth, 'loginRequest'), 'params'), 'parameters.api.authentication.loginRequest.params', attributes, out);
  literalFindings(member(member(auth, 'loginRequest'), 'headers'), 'parameters.api.authentication.loginRequest.headers', attributes, out);
  const visit = (list: readonly JobNode[]): void => {
    for (const node of list) {
      literalFindings(node.params, `${node.path}.params`, attributes, out);
      literalFindings(node.headers, `${node.path}.headers`, attributes, out);
      visit(node.children);
    }
  };
  visit(nodes);
}

/** The dataTypes of the jobs (spec 03 §1.2: a job's own, else its endpoint as configured). */
function dataTypes(nodes: readonly JobNode[], out = new Set<string>()): Set<string> {
  for (const node of nodes) {
    out.add(node.dataType);
    dataTypes(node.children, out);
  }
  return out;
}

/** A mapping applies to the records of the dataType equal to its key; a misspelled key maps nothing. */
export function mappingKeyFindings(configuration: Configuration, nodes: readonly JobNode[], out: Finding[]): void {
  const mappings = configuration.config.get('mappings');
  if (!isMap(mappings)) return;
  const known = [...dataTypes(nodes)];
  const path = configuration.pathOf('mappings');
  for (const key of mappings.keys()) {
    if (known.includes(key)) continue;
    const hint = nearest(key, known);
    const at = childPath(path, key);
    out.push({
      path: at,
      message: `${at}: no job has the dataType "${key}", so this mapping is never used and its records go through the automatic parser (${hint ? `did you mean "${hint}"?` : `dataTypes: ${known.join(', ')}`}). A job's dataType is its "dataType", else its endpoint as written.`,
    });
  }
}
