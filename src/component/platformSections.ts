/** Up-front checks of `parameters.sshProxy` and `parameters.aws` (spec 01 §2.4 group S). */
import { UserError } from '../errors/UserError.ts';
import { member, type Value } from '../php/value.ts';
import { awsCredentialsOf } from '../auth/index.ts';

export function checkPlatformSections(parameters: Value | undefined): void {
  const ssh = member(parameters, 'sshProxy');
  if (ssh !== undefined && ssh !== null) {
    const missing = ['user', 'host', 'port', '#privateKey'].filter((k) => member(ssh, k) === undefined);
    if (missing.length > 0)
      throw new UserError(`Missing parameters '${missing.join(',')}' in SSH config.`, { configPath: 'parameters.sshProxy' });
  }
  // The AWS credentials' checks, made when the section is parsed.
  awsCredentialsOf(parameters);
}
