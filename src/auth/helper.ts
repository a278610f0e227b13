/**
 * The sync actions' authentication methods (spec 05 §2.5), registered in helperRegistry.ts by
 * importing their files; a new method is its file and its import line here.
 */
import './helperBasic.ts';
import './helperBearer.ts';
import './helperApiKey.ts';
import './helperQuery.ts';
import './helperLogin.ts';

export {
  createHelperAuthenticator,
  helperAuthMethodSpecs,
  type HelperAuthenticator,
  type HelperDialect,
  type HelperErrorKind,
  type HelperLoginRequest,
  type HelperLoginResponse,
} from './helperRegistry.ts';
