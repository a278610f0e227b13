import { UserError } from '../../errors/UserError.ts';

/** Invalid input to the client or CLI (unknown stack name, malformed URL, bad option). */
export class PlatformUsageError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'PlatformUsageError';
  }
}
