/**
 * Pre-flight checks (issue 18 #2): everything that can be known wrong about a configuration
 * before the first request, each finding naming its config path and the fix. The reference
 * runs such configurations (silently), so findings are WARNINGs; `--strict` (or
 * EX_GENERIC_STRICT=1) makes them errors before any request.
 *
 * - documented shapes of the schema: unknown keys with "did you mean", wrong types (schemaWalk.ts);
 * - child endpoints with {placeholders} no placeholder fills, children that never run, levels
 *   deeper than the job tree;
 * - incremental output without a primary key.
 */
import { isEmpty, isMap, member, truthy, type Value } from '../php/value.ts';
import type { Configuration } from './configurations.ts';
import { jobTree, type JobNode } from './jobTree.ts';
import { configSchema } from './schema.ts';
import type { SchemaNode } from './schemaParts.ts';
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

/** Whether a user mapping gives some table a primary key. */
function mappingsHavePrimaryKey(mappings: Value | undefined): boolean {
  if (!isMap(mappings)) return false;
  const visit = (definition: Value | undefined): boolean => {
    if (!isMap(definition)) return false;
    if (truthy(member(member(definition, 'mapping'), 'primaryKey'))) return true;
    if (truthy(member(member(definition, 'parentKey'), 'primaryKey'))) return true;
    const nested = member(definition, 'tableMapping');
    return isMap(nested) && [...nested.values()].some(visit);
  };
  return [...mappings.values()].some((m) => isMap(m) && [...m.values()].some(visit));
}

/** All findings for a configuration file whose sections passed the reference's checks. */
export function preflight(root: Value, configurations: readonly Configuration[]): Finding[] {
  const walk = new SchemaWalk(configSchema as unknown as SchemaNode, attributeNames(root));
  walk.walk(configSchema as unknown as SchemaNode, root, '');
  const findings = [...walk.findings];
  for (const configuration of configurations) {
    const { config } = configuration;
    placeholderFindings(jobTree(config.get('jobs'), configuration.pathOf('jobs').replace(/\.jobs$/, '')), [], 0, findings);
    if (config.get('incrementalOutput') === true && !mappingsHavePrimaryKey(config.get('mappings'))) {
      const path = configuration.pathOf('incrementalOutput');
      findings.push({
        path,
        message: `${path}: incremental output without a primary key: every run appends all rows again (duplicates). Give the key columns "primaryKey": true in parameters.config.mappings, or set incrementalOutput to false.`,
      });
    }
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
  const value = last?.config.get('incrementalOutput');
  if (value === undefined || isEmpty(value) || value === true) return undefined;
  return last!.pathOf('incrementalOutput');
}
