// The password reset compares the phone a member types with the one stored, in one normal form:
// the number in E.164 (+819012345678) as libphonenumber reads it in Japan, so 090-1234-5678,
// +81 90-1234-5678 and the digits alone are one number, whichever way either side was written
// (a number stored before hyphens were removed, or imported in its international form).
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { sameText } from './secrets';

/** A phone number's normal form: E.164 when libphonenumber reads a number in it (Japan by
 *  default), else its digits (a leading plus kept), so text that is no number still compares. */
export function phoneKey(text: string): string {
  const plain = text.normalize('NFKC');
  const number = parsePhoneNumberFromString(plain, 'JP');
  return number ? number.number : plain.replace(/[^0-9+]/g, '');
}

/** Whether two phone texts are one number, in time that does not depend on where they differ. */
export function samePhone(stored: string, typed: string): boolean {
  return sameText(phoneKey(stored), phoneKey(typed));
}
