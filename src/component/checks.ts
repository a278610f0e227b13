/**
 * The checks of a configuration before any request, shared by a run and by `validate`/`plan`
 * (dryRun.ts):
 * - the pre-flight findings (src/config/preflight.ts): a WARNING each, or with strict mode one
 *   ERROR and exit 1;
 * - the checks the reference makes only when a configuration or a job starts — API section,
 *   allowed hosts, authentication, pagination, the first request of each top-level job — made
 *   for every configuration up front, with the reference's messages. A configuration the
 *   reference runs passes them all, so only the moment of a failure changes (before the first
 *   request instead of after earlier configurations' or jobs' requests);
 * - the output names, which the reference meets only when it writes its tables (outputNames.ts).
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { authenticationOf } from '../config/authOptions.ts';
import { buildApiDescription, evaluateClientHeaders, type ApiDescription } from '../config/api.ts';
import { allowedHostsOf, checkConfigurationJobUrls } from '../config/allowedHosts.ts';
import { attributesOf, buildConfigurations, configurationsForHints, type Configuration } from '../config/configurations.ts';
import type { JobNode } from '../jobs/jobNode.ts';
import { certainIncrementalCrash, type Finding, preflight } from '../config/preflight.ts';
import { awsCredentialsOf, createAuthenticator, createAwsSigner, randomHexNonce } from '../auth/index.ts';
import { flattenContext } from '../functions/index.ts';
import type { Authenticator, Signer } from '../http/client.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import { buildRequest, type RequestSettings } from '../http/request.ts';
import { evaluateParams } from '../jobs/evaluation.ts';
import { withJobPath } from '../jobs/runner.ts';
import { createScroller } from '../pagination/index.ts';
import { member, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { checkOutputNames } from './outputNames.ts';
import { checkPlatformSections } from './platformSections.ts';
import type { RunState } from './state.ts';

/** EX_GENERIC_STRICT=1 (or true/yes) turns pre-flight warnings into an error. */
export function strictFromEnv(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes|on)$/i.test(env['EX_GENERIC_STRICT'] ?? '');
}

export const INCREMENTAL_MESSAGE = 'incrementalOutput must be a boolean.';
export const INCREMENTAL_HINT = 'Set incrementalOutput to true or false.';

/** A run shows this many pre-flight findings (a generated configuration may repeat one mistake in hundreds of jobs). */
const RUN_FINDINGS_SHOWN = 25;

/**
 * The configurations of the file, after the reference's own checks of them and of the platform
 * sections (`sshProxy`, `aws`). When those checks reject the file, every pre-flight finding that
 * can still be computed is logged first — the schema's (a mistyped `Endpoint`, `jobs` given as
 * one object, a misplaced key) and those that need the parsed configurations (an `outputBucket`
 * written with `in.c-`): they usually explain the error that follows, or are the next one.
 */
export function configurationsOf(root: Value, parameters: Value | undefined, logger: Logger): Configuration[] {
  let configurations: Configuration[] | undefined;
  try {
    configurations = buildConfigurations(parameters);
    checkPlatformSections(parameters);
    return configurations;
  } catch (e) {
    if (e instanceof UserError)
      logFindings(hintFindings(root, configurations ?? configurationsForHints(parameters)), logger, RUN_FINDINGS_SHOWN);
    throw e;
  }
}

/** The findings for a file the reference's checks rejected: as many as can be computed. */
function hintFindings(root: Value, configurations: Configuration[]): Finding[] {
  // The hints are a courtesy: the reference's error is what matters. A configuration that failed
  // its checks may have shapes a finding does not expect; then only the schema's are given.
  for (const attempt of [configurations, []]) {
    try {
      return preflight(root, attempt);
    } catch {}
  }
  return [];
}

function logFindings(findings: Finding[], logger: Logger, shown: number): void {
  for (const finding of findings.slice(0, shown)) logger.warning(finding.message, { configPath: finding.path });
  if (findings.length > shown) {
    logger.warning(`… and ${findings.length - shown} more configuration warning(s); \`ex-generic validate\` lists them all.`);
  }
}

/**
 * The pre-flight findings (the reference's group B and platform checks have run when this is
 * called), then the reference's late crash on a non-boolean incrementalOutput: an error for the
 * checks (`validate`, `plan`); for a run (`incrementalCrash: 'warn'`) a WARNING only, since the
 * reference crashes after the whole extraction and any user error of the extraction (exit 1)
 * comes first (issue 22 class 4) — the run then fails where the reference does.
 * Resolves to the number of findings.
 */
export function preflightChecks(
  root: Value,
  configurations: Configuration[],
  logger: Logger,
  strict: boolean,
  shown = RUN_FINDINGS_SHOWN,
  incrementalCrash: 'throw' | 'warn' = 'throw',
): number {
  const findings = preflight(root, configurations);
  logFindings(findings, logger, shown);
  if (strict && findings.length > 0) {
    throw new UserError(
      `The configuration has ${findings.length} problem(s), listed above; strict mode (--strict or EX_GENERIC_STRICT=1) stops before any request. Fix them, or run without strict mode.`,
      { configPath: findings[0]!.path },
    );
  }
  const crash = certainIncrementalCrash(configurations);
  if (crash !== undefined && incrementalCrash === 'throw')
    throw new ApplicationError(INCREMENTAL_MESSAGE, { context: { configPath: crash }, hint: INCREMENTAL_HINT });
  if (crash !== undefined)
    logger.warning(
      `${crash} is not a boolean: this run will fail with "${INCREMENTAL_MESSAGE}" (exit 2) after the extraction, when the manifests are written, as the reference does. Set it to true or false.`,
      { configPath: crash },
    );
  return findings.length;
}

/** A configuration set up as a run sets it up, without a client: what `plan` sends nowhere. */
export interface PreparedConfiguration {
  configuration: Configuration;
  api: ApiDescription;
  authenticator: Authenticator | undefined;
  signer: Signer | undefined;
  /** Each top-level job with its first request (none when its scroller has none). */
  jobs: { node: JobNode; first: PreparedRequest | undefined }[];
}

export interface PrepareContext {
  root: Value;
  parameters: Value | undefined;
  state: RunState;
  /** API set-up messages (authentication type, deprecations). */
  logger: Logger;
  /** Logger of the authentication and the scrollers. */
  requestLogger: Logger;
  nowMs: () => number;
}

/** Throws the error the reference would raise when this configuration or one of its jobs starts. */
export function prepareConfiguration(configuration: Configuration, ctx: PrepareContext): PreparedConfiguration {
  const { config } = configuration;
  const { root, parameters, nowMs } = ctx;
  const api = buildApiDescription(parameters, config, ctx.logger, configuration.pathOf);
  checkOutputNames(configuration, api.name);
  const allowedHosts = allowedHostsOf(member(root, 'image_parameters'));
  if (allowedHosts) checkConfigurationJobUrls(allowedHosts, api.baseUrl, parameters, configuration);
  const clientHeaders = evaluateClientHeaders(api.headerDefinitions, config, configuration.pathOf, ctx.requestLogger.secrets);
  const authenticator = createAuthenticator({
    options: authenticationOf(api, config, root, ctx.requestLogger),
    attributes: attributesOf(config),
    baseUrl: api.baseUrl,
    logger: ctx.requestLogger,
    nowMs,
    nonce: randomHexNonce,
    clientHeaders: () => clientHeaders,
  });
  const aws = awsCredentialsOf(parameters);
  const signer = aws === undefined ? undefined : createAwsSigner(aws, nowMs);
  const functions = { attr: flattenContext(attributesOf(config)), time: flattenContext(ctx.state.timeValues()) };
  const settings: RequestSettings = { baseUrl: api.baseUrl, clientHeaders, defaultOptions: api.defaultOptions };
  const jobs: PreparedConfiguration['jobs'] = [];
  for (const node of configuration.jobs) {
    // Built as the run builds it when the job starts: its scroller, params and first request.
    const scroller = createScroller(api.pagination, ctx.requestLogger, nowMs);
    const params = evaluateParams(node.params, functions, nowMs, `${node.path}.params`, ctx.requestLogger.secrets);
    const description = scroller.firstRequest({ config: node.config, endpoint: node.endpoint, params, path: node.path });
    const first = description === null ? undefined : withJobPath(node.path, () => buildRequest(description, settings));
    jobs.push({ node, first });
  }
  return { configuration, api, authenticator, signer, jobs };
}
