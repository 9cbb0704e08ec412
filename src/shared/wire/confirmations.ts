// Endpoints whose form has a confirmation field the payload does not carry (a second copy of
// the address or password is checked in the browser only), or names a field differently.
import type { WireAdapter } from './adapter';

/** POST /v1/user/set-password: the reset form's new password, without its confirmation. */
export const setPasswordWire: WireAdapter = {
  toWire: ({ new_password_confirm: _confirm, ...form }, extra) => ({ ...extra, ...form }),
  fromWire: (data) => ({ ...data, new_password_confirm: data.new_password }),
  wireField: (path) => (path === 'new_password_confirm' ? null : path),
};

/** POST /v1/email/register: the registration e-mail form's address, without its confirmation. */
export const emailRegisterWire: WireAdapter = {
  toWire: ({ email_confirm: _confirm, ...form }, extra) => ({ ...extra, ...form }),
  fromWire: (data) => ({ ...data, email_confirm: data.email }),
  wireField: (path) => (path === 'email_confirm' ? null : path),
};

/** POST /v1/email/verify: the code form's `code` travels as `key`. */
export const emailVerifyWire: WireAdapter = {
  toWire: ({ code, ...form }, extra) => ({ ...extra, ...form, key: code }),
  fromWire: ({ key, ...data }) => ({ ...data, code: key }),
  wireField: (path) => (path === 'code' ? 'key' : path),
};
