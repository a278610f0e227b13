/**
 * What a registered component (an authentication type, a pagination method, the stop
 * conditions) says about its options: one schema node per option. That node is the option's
 * JSON Schema, its row in the generated docs and the default its parser falls back to, so a new
 * method is one file and its registration: src/config/ assembles the variants into the
 * configuration schema, scripts/docs renders them.
 */
import type { SchemaNode } from './schemaNode.ts';

export interface OptionsSpec {
  /** What the component does, in one or two sentences (docs and the schema variant). */
  description: string;
  /** Option name → its schema node (type, default, description, examples). */
  options: Readonly<Record<string, SchemaNode>>;
  /** Options the schema marks as required (the parser's own checks decide what a run does without them). */
  required?: readonly string[];
}

/**
 * The schema variant of one component of a discriminated union (`oneOf` with
 * `x-discriminator`): the discriminator's constant, the component's options and the options
 * every variant shares (`shared`), no other key.
 */
export function schemaVariant(
  discriminator: string,
  name: string,
  spec: OptionsSpec,
  shared: Readonly<Record<string, SchemaNode>> = {},
): SchemaNode {
  return {
    description: spec.description,
    properties: { [discriminator]: { const: name }, ...spec.options, ...shared },
    required: [discriminator, ...(spec.required ?? [])],
    additionalProperties: false,
  };
}
