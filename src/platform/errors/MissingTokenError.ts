import { UserError } from '../../errors/UserError.ts';

/** A call that needs the token was made without one. */
export class MissingTokenError extends UserError {
  constructor() {
    super('No Storage API token: set KBC_TOKEN (in the environment or a .env file).');
    this.name = 'MissingTokenError';
  }
}
