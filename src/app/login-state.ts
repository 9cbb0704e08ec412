// What the login page is told when a member is sent there: where they were going (to return
// after logging in) and, when their session ended, a notice saying so.
import { useLocation } from 'react-router-dom';

export interface LoginState {
  from?: string;
  notice?: 'sessionEnded';
}

export function useLoginState(): LoginState {
  return (useLocation().state as LoginState | null) ?? {};
}
