/**
 * One configuration of an extraction (spec 01 §1.6): its API description, authentication and
 * HTTP client, then its jobs into its bucket's output; the parser's structure goes into the state.
 */
import { authenticationOf, headerSourcesOf } from '../config/authOptions.ts';
import { buildApiDescription, evaluateClientHeaders, type ApiDescription } from '../config/api.ts';
import { attributesOf, type Configuration } from '../config/configurations.ts';
import { bucketOf } from '../config/outputOptions.ts';
import { allowedHostsOf, checkConfigurationJobUrls, requestChecker } from '../config/allowedHosts.ts';
import { credentialScope } from '../config/credentialOrigins.ts';
import { awsCredentialsOf, createAuthenticator, createAwsSigner, randomHexNonce } from '../auth/index.ts';
import { flattenContext } from '../functions/index.ts';
import { type Authenticator, HttpClient } from '../http/client.ts';
import type { HeaderList } from '../http/headers.ts';
import { Transport } from '../http/transport.ts';
import { rateLimitOptions } from '../http/rateLimit/index.ts';
import { concurrencyOf } from '../jobs/concurrency.ts';
import { JobRunner } from '../jobs/runner.ts';
import { isCredentialKey } from '../logging/redact.ts';
import { member } from '../php/value.ts';
import type { BucketOutputs } from './bucketOutputs.ts';
import type { RunContext } from './runContext.ts';

/** Runs `configuration`'s jobs into its bucket's output. */
export async function runConfiguration(configuration: Configuration, run: RunContext, outputs: BucketOutputs): Promise<void> {
  const { config, output } = configuration;
  const { logger } = run;
  logger.setLevel(output.debug ? 'debug' : 'info');
  const api = buildApiDescription(run.parameters, config, logger, configuration.pathOf);
  const allowedHosts = allowedHostsOf(member(run.root, 'image_parameters'));
  if (allowedHosts) checkConfigurationJobUrls(allowedHosts, api.baseUrl, run.parameters, configuration);
  let clientHeaders: HeaderList | undefined;
  const authenticator = createAuthenticator({
    options: authenticationOf(api, config, run.root, logger, headerSourcesOf(api, config)),
    attributes: attributesOf(config),
    baseUrl: api.baseUrl,
    logger,
    nowMs: run.nowMs,
    nonce: randomHexNonce,
    clientHeaders: () => clientHeaders ?? evaluateClientHeaders(api.headerDefinitions, config, configuration.pathOf, logger.secrets),
  });
  const bucketOutput = outputs.open(configuration, bucketOf(output, api.name));
  clientHeaders = evaluateClientHeaders(api.headerDefinitions, config, configuration.pathOf, logger.secrets);
  // Headers named like credentials (Authorization, X-Api-Key, X-Auth-Token …) carry secrets even
  // when their value is not a # attribute: registered before the first request (issue 19 #1).
  for (const { name, values } of clientHeaders.entries) if (isCredentialKey(name)) for (const v of values) logger.secrets.addHeaderValue(v);
  const { client, transport } = httpClientOf(configuration, run, api, authenticator, allowedHosts);
  const runner = new JobRunner({
    jobs: configuration.run,
    userData: configuration.userData,
    api,
    client,
    settings: { baseUrl: api.baseUrl, clientHeaders, defaultOptions: api.defaultOptions },
    sink: bucketOutput.router,
    logger,
    functions: { attr: flattenContext(attributesOf(config)), time: flattenContext(run.state.timeValues()) },
    compatLevel: output.compatLevel,
    nowMs: run.nowMs,
    stats: run.stats,
    ...(run.limits ? { limits: run.limits } : {}),
    pathOf: configuration.pathOf,
  });
  try {
    await runner.run();
  } finally {
    transport.close(!run.endsProcess);
    // The effective rate per host whose requests were paced or answered 429 (docs/rate-limits.md).
    for (const line of client.rateLimiter.summary()) logger.info(line);
  }
  if (output.mappings === undefined) {
    const { struct, version } = bucketOutput.parser.stateEntries();
    run.state.mergeParser(struct, version);
  }
}

/** The configuration's HTTP client over its own transport (through the run's SSH tunnel, if any). */
function httpClientOf(
  configuration: Configuration,
  run: RunContext,
  api: ApiDescription,
  authenticator: Authenticator | undefined,
  allowedHosts: ReturnType<typeof allowedHostsOf>,
): { client: HttpClient; transport: Transport } {
  const aws = awsCredentialsOf(run.parameters);
  const signer = aws === undefined ? undefined : createAwsSigner(aws, run.nowMs);
  const transport = new Transport({
    connectTimeoutMs: api.connectTimeoutMs,
    requestTimeoutMs: api.requestTimeoutMs,
    ...(api.caCertificate !== undefined ? { ca: api.caCertificate } : {}),
    ...(api.clientCertificate !== undefined ? { cert: api.clientCertificate.cert, key: api.clientCertificate.key } : {}),
    ...(run.tunnel ? { connect: run.tunnel.connect } : {}),
  });
  const client = new HttpClient({
    transport,
    retry: api.retry,
    logger: run.logger,
    ...(authenticator ? { authenticator } : {}),
    ...(signer ? { signer } : {}),
    ...(run.tunnel ? { beforeRetry: run.tunnel.beforeRetry } : {}),
    ...(run.sleep ? { sleep: run.sleep } : {}),
    nowMs: run.nowMs,
    ...(allowedHosts ? { checkUrl: requestChecker(allowedHosts) } : {}),
    concurrency: concurrencyOf(api.api, run.env),
    rateLimit: rateLimitOptions(api.api),
    stats: run.stats,
    credentialScope: credentialScope(api.api, api.baseUrl, allowedHosts, configuration.config.get('jobs')),
    withheldFrom: run.withheldFrom,
  });
  return { client, transport };
}
