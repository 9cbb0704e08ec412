// What a registration's completion dialog adds after the spec's words (both generations): the
// application was received, its register number, and what happens next, in the welcome mail's
// own words (messages/ja.json register.received/registerNumber/nextSteps; messages/mail.ja.json
// welcome; tests/api/registration.test.ts holds them together).
import messages from '../../messages/ja.json';
import { format } from '../shared/format';

const text = messages.register;

/** Lines separated by blank lines; the number is left out when an answer did not carry it. */
export function applicationReceived(registerNumber: string | undefined): string {
  return [text.received, registerNumber ? format(text.registerNumber, { registerNumber }) : '', text.nextSteps].filter(Boolean).join('\n\n');
}
