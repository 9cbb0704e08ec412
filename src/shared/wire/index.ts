// The wire adapter of each endpoint, by its payload schema's $id (schemas/api). An endpoint
// not listed sends its form's data as it is.
import type { WireAdapter } from './adapter';
import { registrationWire } from './registration';
import { profileUpdateWire } from './profile-update';
import { emailRegisterWire, emailVerifyWire, setPasswordWire } from './confirmations';

export const wireAdapters: Record<string, WireAdapter> = {
  'api.user-register.json': registrationWire,
  'api.user-update.json': profileUpdateWire,
  'api.user-set-password.json': setPasswordWire,
  'api.email-register.json': emailRegisterWire,
  'api.email-verify.json': emailVerifyWire,
};

export type { WireAdapter };
