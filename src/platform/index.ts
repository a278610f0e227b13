/** Keboola platform API client (spec 01 §5). */
export { PlatformClient, isJobFinished, type PlatformClientOptions } from './client.ts';
export { STACKS, resolveStack, isLoopbackHost, type Stack } from './stacks.ts';
export { runPlatformCli, usage, type PlatformCliIo } from './main.ts';
export type { StorageIndex, PortalIndex, PortalService, JobRecord, JobMode, CreateJobArgs, WaitOptions } from './types.ts';
export { FINAL_STATUSES } from './types.ts';
export { PlatformApiError } from './errors/PlatformApiError.ts';
export { UnexpectedResponseError } from './errors/UnexpectedResponseError.ts';
export { InvalidTokenError } from './errors/InvalidTokenError.ts';
export { JobWaitTimeoutError } from './JobWaitTimeoutError.ts';
export { ServiceNotFoundError } from './errors/ServiceNotFoundError.ts';
export { StackUnreachableError } from './errors/StackUnreachableError.ts';
export { UntrustedHostError } from './errors/UntrustedHostError.ts';
export { MissingTokenError } from './errors/MissingTokenError.ts';
export { PlatformUsageError } from './errors/PlatformUsageError.ts';
export type { ConfigurationRecord, EventRecord, JobSearch, ProjectInfo } from './types.ts';
export * from './configurations.ts';
export { encryptObject, encryptText, isEncrypted, plainSecretPaths, type CipherScope } from './encryption.ts';
export { jobEvents, allJobEvents, eventLine } from './events.ts';
