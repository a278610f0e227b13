/**
 * Pre-flight checks (issue 18 #2): everything that can be known wrong about a configuration
 * before the first request, each finding naming its config path and the fix. The reference
 * runs such configurations (silently), so findings are WARNINGs; `--strict` (or
 * EX_GENERIC_STRICT=1) makes them errors before any request.
 *
 * - documented shapes of the schema: unknown keys with "did you mean", wrong types (schemaWalk.ts);
 * - child endpoints with {placeholders} no placeholder fills, children that never run, levels
 *   deeper than the job tree.
 * A table loaded incrementally without a primary key is advice, not a finding: it is named per
 * table at INFO when the run writes its manifest (component/bucketOutputs.ts), and an
 * append-only incremental load is a correct configuration that strict mode must not refuse.
 */
import { parseRecursionFilter } from '../jobs/recursionFilter.ts';
import { isMap, member, type Value } from '../php/value.ts';
import type { Configuration } from './configurations.ts';
import type { JobNode } from '../jobs/jobNode.ts';
import { mappingKeyFindings, valueFindings } from './valueChecks.ts';
import { configSchema } from './schema.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
import { type Finding, SchemaWalk } from './schemaWalk.ts';

export type { Finding } from './schemaWalk.ts';

/** Names read by `{"attr": name}` anywhere in the configuration. */
function attributeNames(root: Value, out = new Set<string>()): Set<string> {
  if (isMap(root)) {
    const attr = root.get('attr');
    if (typeof attr === 'string') out.add(attr.split('.')[0]!);
    for (const v of root.values()) attributeNames(v, out);
  } else if (Array.isArray(root)) for (const v of root) attributeNames(v, out);
  return out;
}

/** `{name}` tokens of an endpoint template. */
function endpointPlaceholders(endpoint: string): string[] {
  return [...endpoint.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
}

function placeholderFindings(nodes: readonly JobNode[], inherited: readonly string[], depth: number, out: Finding[]): void {
  for (const node of nodes) {
    const own = node.placeholders;
    const names = [...inherited, ...own.filter((n) => !inherited.includes(n))];
    if (depth === 1 && own.length === 0) {
      out.push({
        path: `${node.path}.placeholders`,
        message: `${node.path}: this child job never runs: a child of a top-level job needs "placeholders" (e.g. {"id": "id"}) to know which parent record it belongs to.`,
      });
    }
    for (const name of own) {
      const level = /^(\d+):/.exec(name);
      if (level !== null && Number(level[1]) > depth) {
        out.push({
          path: `${node.path}.placeholders`,
          message: `${node.path}.placeholders: "${name}" asks for level ${level[1]}, but this job has only ${depth} parent level(s); the run would fail with "Level ${level[1]} not found in parent results!".`,
        });
      }
    }
    for (const token of endpointPlaceholders(node.endpoint)) {
      if (names.includes(token)) continue;
      const literally = `it would be sent literally as %7B${encodeURIComponent(token)}%7D`;
      const message =
        depth === 0
          ? `${node.path}.endpoint: {${token}} is never filled: only child jobs (in "children") fill placeholders from a parent record; ${literally}.`
          : `${node.path}.endpoint: {${token}} is never filled: no placeholder is named "${token}" (known: ${names.join(', ') || 'none'}); ${literally}. Add "placeholders": {"${token}": "<field of the parent record>"} to this job.`;
      out.push({ path: `${node.path}.endpoint`, message });
    }
    placeholderFindings(node.children, names, depth + 1, out);
  }
}

/** Recursion filters the reference would reject when the child job first runs. */
function recursionFilterFindings(nodes: readonly JobNode[], out: Finding[]): void {
  for (const node of nodes) {
    if (node.recursionFilter !== undefined) {
      try {
        parseRecursionFilter(node.recursionFilter);
      } catch (e) {
        out.push({
          path: `${node.path}.recursionFilter`,
          message: `${node.path}.recursionFilter: ${(e as Error).message} The run fails when this child job first runs.`,
        });
      }
    }
    recursionFilterFindings(node.children, out);
  }
}

/**
 * Base URL pitfalls of RFC 3986 resolution (the reference's): a path without a trailing "/" loses
 * its last segment for relative endpoints ("https://x/v1" + "users" = "https://x/users"); an
 * endpoint starting with "/" drops the base path; the base URL's query is never sent.
 */
function baseUrlFindings(parameters: Value | undefined, nodes: readonly JobNode[], out: Finding[]): void {
  const baseUrl = member(member(parameters, 'api'), 'baseUrl');
  if (typeof baseUrl !== 'string') return;
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(baseUrl);
  if (match === null) return;
  const basePath = match[1] ?? '';
  const last = basePath.split('/').pop() ?? '';
  const relative = nodes.find((n) => n.endpoint !== '' && !/^([a-z][a-z0-9+.-]*:|\/|\?)/i.test(n.endpoint));
  if (last !== '' && relative !== undefined) {
    const kept = match[0].slice(0, match[0].length - last.length);
    out.push({
      path: 'parameters.api.baseUrl',
      message: `parameters.api.baseUrl: "${baseUrl}" does not end with "/", so a relative endpoint replaces its last segment "${last}": "${relative.endpoint}" is requested as ${kept}${relative.endpoint}. End baseUrl with "/" to keep "${last}".`,
    });
  }
  const rooted = nodes.find((n) => n.endpoint.startsWith('/') && !n.endpoint.startsWith('//'));
  if (rooted !== undefined && basePath.replace(/\/+$/, '') !== '') {
    out.push({
      path: `${rooted.path}.endpoint`,
      message: `${rooted.path}.endpoint: "${rooted.endpoint}" starts with "/", so it replaces the path "${basePath}" of baseUrl (requested as ${match[0].slice(0, match[0].length - basePath.length)}${rooted.endpoint}). Remove the leading "/" to request it under baseUrl.`,
    });
  }
  if (/\?[^#]/.test(baseUrl.slice(match[0].length))) {
    out.push({
      path: 'parameters.api.baseUrl',
      message: `parameters.api.baseUrl: its query ("${baseUrl.slice(match[0].length).replace(/#.*$/, '')}") is never sent: resolving an endpoint against baseUrl drops it. Put such parameters in parameters.api.http.defaultOptions.params (or an authentication of type query).`,
    });
  }
}

/** An output bucket written with the stage prefix gets it twice ("in.c-in.c-…"). */
function bucketFindings(configuration: Configuration, out: Finding[]): void {
  const bucket = configuration.output.outputBucket;
  if (bucket !== null && /^(in|out)\.c-/.test(bucket)) {
    const path = configuration.pathOf('outputBucket');
    out.push({
      path,
      message: `${path}: "${bucket}" already has the stage prefix; tables go to in.c-${bucket}.<table>. Write the bucket name without it: "${bucket.replace(/^(in|out)\.c-/, '')}".`,
    });
  }
}

/** All findings for a configuration file whose sections passed the reference's checks. */
export function preflight(root: Value, configurations: readonly Configuration[]): Finding[] {
  const walk = new SchemaWalk(configSchema as unknown as SchemaNode, attributeNames(root));
  walk.walk(configSchema as unknown as SchemaNode, root, '');
  const findings = [...walk.findings];
  const parameters = member(root, 'parameters');
  for (const configuration of configurations) {
    const { jobs } = configuration;
    placeholderFindings(jobs, [], 0, findings);
    recursionFilterFindings(jobs, findings);
    baseUrlFindings(parameters, jobs, findings);
    valueFindings(parameters, configuration, jobs, findings);
    mappingKeyFindings(configuration, jobs, findings);
    bucketFindings(configuration, findings);
  }
  const seen = new Set<string>();
  return findings.filter((f) => !seen.has(f.message) && seen.add(f.message));
}

/**
 * The reference crashes (exit 2) writing the manifests when `incrementalOutput` is truthy but not
 * a boolean. When the last configuration has such a value that crash is certain, so it is raised
 * before any request with the same message; undefined otherwise (the bucket decides later).
 */
export function certainIncrementalCrash(configurations: readonly Configuration[]): string | undefined {
  const last = configurations[configurations.length - 1];
  if (last?.output.incremental !== 'invalid') return undefined;
  return last.pathOf('incrementalOutput');
}
