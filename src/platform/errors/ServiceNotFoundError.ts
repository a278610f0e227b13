import { UserError } from '../../errors/UserError.ts';

/** The stack's storage index lists no service with this id. */
export class ServiceNotFoundError extends UserError {
  readonly serviceId: string;

  constructor(serviceId: string) {
    super(`Service "${serviceId}" not found in the stack index.`);
    this.name = 'ServiceNotFoundError';
    this.serviceId = serviceId;
  }
}
