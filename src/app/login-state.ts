// What the login page is told when a member is sent there: where they were going (to return
// after logging in) and, when their session ended, a notice saying why: no activity ('idle'),
// the absolute limit since login ('limit'), or anything else ('ended': logged out elsewhere).
import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { SessionEndReason } from '../api/session';
import { loginPath } from './catalogue';

export interface LoginState {
  from?: string;
  notice?: SessionEndReason;
}

export function useLoginState(): LoginState {
  return (useLocation().state as LoginState | null) ?? {};
}

/** Sends the member to login with the notice saying why, remembering where they were (the
 *  location when it is called: a callback registered once stays current). */
export function useToLogin(): (notice: SessionEndReason) => void {
  const navigate = useNavigate();
  const location = useLocation();
  const where = useRef(location);
  useEffect(() => {
    where.current = location;
  }, [location]);
  return useCallback(
    (notice) => {
      const { pathname, search } = where.current;
      const state: LoginState = { notice, from: pathname.startsWith(loginPath) ? undefined : pathname + search };
      navigate(loginPath, { replace: true, state });
    },
    [navigate],
  );
}
