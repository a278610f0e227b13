import { ApplicationError } from './ApplicationError.ts';

/** Guzzle's "Unable to parse URI" (PHP `parse_url` returned false, or an impossible port). */
export class InvalidUriError extends ApplicationError {
  constructor(uri: string) {
    super(`Unable to parse URI: ${uri}`);
    this.name = 'InvalidUriError';
  }
}
