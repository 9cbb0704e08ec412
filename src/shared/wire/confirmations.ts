// Endpoints whose form has a confirmation field the payload need not carry (a second copy of the
// address or password: the specification's payloads leave it out, so the browser checks it),
// or names a field differently. A confirmation the payload does carry is judged by the server
// as the form judges it (a mismatch is refused under its name); one left out stands for what
// it confirms, so the payload the specification names is accepted.
import type { WireAdapter } from './adapter';

/** The adapter of a form whose `confirm` field repeats `field` and may be left off the payload. */
function optionalConfirmation(field: string, confirm: string): WireAdapter {
  return {
    toWire: ({ [confirm]: _confirm, ...form }, extra) => ({ ...extra, ...form }),
    fromWire: (data) => ({ ...data, [confirm]: data[confirm] === undefined || data[confirm] === '' ? data[field] : data[confirm] }),
    // An error of a confirmation that was not sent is its field's (already reported under it).
    wireField: (path, body) => (path === confirm && (body?.[confirm] === undefined || body[confirm] === '') ? null : path),
    mayLeaveOut: [confirm],
  };
}

/** POST /v1/user/set-password: the reset form's new password; its confirmation when sent. */
export const setPasswordWire: WireAdapter = optionalConfirmation('new_password', 'new_password_confirm');

/** POST /v1/email/register: the registration e-mail form's address; its confirmation when sent. */
export const emailRegisterWire: WireAdapter = optionalConfirmation('email', 'email_confirm');

/** POST /v1/email/verify: the code form's `code` travels as `key`. */
export const emailVerifyWire: WireAdapter = {
  toWire: ({ code, ...form }, extra) => ({ ...extra, ...form, key: code }),
  fromWire: ({ key, ...data }) => ({ ...data, code: key }),
  wireField: (path) => (path === 'code' ? 'key' : path),
};
