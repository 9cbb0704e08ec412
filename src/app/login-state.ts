// What the login page is told when a member is sent there: where they were going (to return
// after logging in) and, when their session ended, a notice saying why: no activity ('idle'),
// the absolute limit since login ('limit'), or anything else ('ended': logged out elsewhere).
import { useLocation } from 'react-router-dom';
import type { SessionEndReason } from '../api/session';

export interface LoginState {
  from?: string;
  notice?: SessionEndReason;
}

export function useLoginState(): LoginState {
  return (useLocation().state as LoginState | null) ?? {};
}
