// The specification's messages for a failed code check, shared by every code-entry screen.
import messages from '../../messages/ja.json';
import { ApiFailure, call } from './client';

/** `linked`: the code's mail also carries a link (registration, password reset), which no count
 *  of wrong codes refuses: past the address's ceiling the member is sent to it. */
export function verificationMessage(failure: unknown, linked = false): string {
  if (!(failure instanceof ApiFailure)) return messages.verification.failed;
  if (linked && failure.code === 'TOO_MANY_ATTEMPTS') return messages.verification.limitUseLink;
  if (failure.code === 'CODE_INVALID' || /expired|invalid/i.test(failure.message)) return messages.verification.invalid;
  if (failure.status === 429) return messages.verification.limit;
  if (failure.status >= 500) return messages.verification.server;
  return messages.verification.failed;
}

/** What a mailed link was for: a registration (STEP1) or a password reset. */
export type CodeLinkPurpose = 'email_register' | 'password_change';

/** The address a mailed link was for and a fresh code this tab's flow holds (docs/decisions/015). */
export interface OpenedLink {
  purpose: CodeLinkPurpose;
  email: string;
  code: string;
}

/** Opens the link mailed beside a code: the answer's flow (X-Code-Flow) becomes this tab's. */
export const openCodeLink = (key: string) => call<OpenedLink>('post', '/email/link', { auth: 'client', body: { key } });
