// The specification's messages for a failed code check, shared by every code-entry screen.
import messages from '../../messages/ja.json';
import { ApiFailure } from './client';

export function verificationMessage(failure: unknown): string {
  if (!(failure instanceof ApiFailure)) return messages.verification.failed;
  if (failure.code === 'CODE_INVALID' || /expired|invalid/i.test(failure.message)) return messages.verification.invalid;
  if (failure.status === 429) return messages.verification.limit;
  if (failure.status >= 500) return messages.verification.server;
  return messages.verification.failed;
}
