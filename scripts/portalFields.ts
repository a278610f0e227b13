/**
 * The Developer Portal's app fields, as spec 07 §1.2 lists them (types from the Portal's own
 * validation, values the Docker Runner accepts), written as a JSON Schema so that ajv checks a
 * payload against it: scripts/component-json.ts before writing component.json, and
 * tests/platform/componentJson.test.ts. Any other key is refused: the Portal stores no
 * descriptor of ours (§1.1), so `image`, `dataFolder` or `exitCodes` would be noise it rejects.
 */
import { Ajv, type ErrorObject } from 'ajv';

/** `requiredMemory`: the runner's `^[0-9]+(m|g)$`, case-insensitive, at most 10 characters (§1.2). */
const MEMORY = '^(?=.{1,10}$)[0-9]+[mMgG]$';

export const portalFieldsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'type', 'shortDescription', 'repository', 'actions', 'logger'],
  properties: {
    // ⟨vendor⟩.⟨id⟩; the id itself 3–64 of [a-zA-Z0-9-_].
    id: { type: 'string', pattern: '^[a-zA-Z0-9_-]+\\.[a-zA-Z0-9_-]{3,64}$' },
    // ≤128; the words publication refuses are checked in portalFieldProblems.
    name: { type: 'string', minLength: 1, maxLength: 128 },
    type: { enum: ['extractor', 'application', 'writer', 'processor', 'transformation', 'code-pattern', 'other'] },
    shortDescription: { type: 'string', minLength: 1 },
    longDescription: { type: 'string' },
    documentationUrl: { type: 'string', pattern: '^https://', maxLength: 255 },
    licenseUrl: { type: 'string', pattern: '^https://', maxLength: 255 },
    sourceCodeUrl: { type: 'string' },
    repository: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'uri', 'tag'],
      properties: {
        type: { enum: ['dockerhub', 'quay', 'builder', 'ecr'] },
        uri: { type: 'string', minLength: 1 },
        // Production tags are semantic versions (§1.1 item 5), at most 20 characters.
        tag: { type: 'string', maxLength: 20, pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$' },
        options: { type: 'object' },
      },
    },
    imageParameters: { type: 'object' },
    stackParameters: { type: 'object' },
    configurationSchema: { type: 'object' },
    configurationRowSchema: { type: 'object' },
    // Markdown with ### and #### headings only (publication rule).
    configurationDescription: { type: 'string', not: { pattern: '(^|\\n)(#|##|#{5,}) ' } },
    emptyConfiguration: { type: 'object' },
    uiOptions: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    features: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    encryption: { type: 'boolean' },
    network: { enum: ['none', 'bridge', 'no-internet'] },
    requiredMemory: { type: 'string', pattern: MEMORY },
    processTimeout: { type: 'integer', minimum: 0 },
    forwardToken: { type: 'boolean' },
    forwardTokenDetails: { type: 'boolean' },
    defaultBucket: { type: 'boolean' },
    defaultBucketStage: { enum: ['in', 'out'] },
    // The Portal's values; the runner's `none` would stop the upload of out/tables (§2.1 item 9).
    stagingStorageInput: { enum: ['local', 's3'] },
    configurationFormat: { enum: ['json'] },
    // Sync actions only: `run` is not one (§2.2 item 1).
    actions: { type: 'array', items: { type: 'string', minLength: 1, not: { const: 'run' } }, uniqueItems: true },
    logger: { enum: ['standard', 'gelf'] },
    loggerConfiguration: { type: 'object' },
    dataTypesConfiguration: {
      type: 'object',
      properties: { dataTypesSupport: { enum: ['authoritative', 'hints', 'none'] } },
    },
    processorConfiguration: {
      type: 'object',
      properties: { allowedProcessorPosition: { enum: ['any', 'before', 'after'] } },
    },
  },
} as const;

/** What a `not` in the field list rules out, by field (ajv's own message is "must NOT be valid"). */
const NOT_MESSAGES: Record<string, string> = {
  configurationDescription: 'only ### and #### headings are allowed',
  actions: '"run" is not a sync action: list only the sync actions',
};

function messageOf(error: ErrorObject): string {
  if (error.keyword !== 'not') return error.message ?? error.keyword;
  return NOT_MESSAGES[error.instancePath.split('/')[1] ?? ''] ?? 'a value spec 07 rules out';
}

/** The names the publication rule refuses in `name` (spec 07 §1.2), matched case-insensitively. */
const FORBIDDEN_NAME_WORDS = /extractor|writer|application/i;

/**
 * The payload's violations of the field list, one line each (`/field: message`); empty when it
 * conforms. JSON Schema patterns have no case-insensitive flag, so the name rule is checked here.
 */
export function portalFieldProblems(payload: unknown): string[] {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(portalFieldsSchema);
  const problems = validate(payload) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${messageOf(e)}`);
  const name = (payload as { name?: unknown })?.name;
  if (typeof name === 'string' && FORBIDDEN_NAME_WORDS.test(name))
    problems.push(`/name: must not contain "extractor", "writer" or "application"`);
  return problems;
}
