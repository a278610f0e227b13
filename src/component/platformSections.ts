/** Up-front checks of `parameters.sshProxy` and `parameters.aws` (spec 01 §2.4 group S). */
import { UserError } from '../errors/UserError.ts';
import { isEmpty, member, type Value } from '../php/value.ts';

export function checkPlatformSections(parameters: Value | undefined): void {
  const ssh = member(parameters, 'sshProxy');
  if (ssh !== undefined && ssh !== null) {
    const missing = ['user', 'host', 'port', '#privateKey'].filter((k) => member(ssh, k) === undefined);
    if (missing.length > 0)
      throw new UserError(`Missing parameters '${missing.join(',')}' in SSH config.`, { configPath: 'parameters.sshProxy' });
  }
  const credentials = member(member(member(parameters, 'aws'), 'signature'), 'credentials');
  if (!isEmpty(credentials)) {
    for (const key of ['accessKeyId', '#secretKey', 'serviceName', 'regionName']) {
      if (isEmpty(member(credentials, key))) {
        throw new UserError(`Option "${key}" under "parameters.aws.signature.credentials" cannot be empty.`, {
          configPath: `parameters.aws.signature.credentials.${key}`,
        });
      }
    }
  }
}
