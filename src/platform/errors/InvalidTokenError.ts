import { PlatformApiError } from './PlatformApiError.ts';

/** The stack rejected the token: its body says `Invalid Token` / `Invalid access token` (01 §5.5). */
export class InvalidTokenError extends PlatformApiError {
  constructor(message: string, status: number, body: string) {
    super(message, status, body);
    this.name = 'InvalidTokenError';
  }
}
