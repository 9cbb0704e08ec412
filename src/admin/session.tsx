// Who is logged in. At start the app asks GET /v1/admin/session (the cookie, if any, says);
// the login screen hands over its answer. A call that finds the session gone takes the
// operator to the login page with where they were, and back there after logging in: drafts
// kept in sessionStorage bring back what they had typed.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { SessionAnswer, SessionOperator } from '../shared/admin-api';
import { adminCall, onSessionGone, setCsrfToken } from './api';
import { loginPath, mayOpen } from './catalogue';

interface SessionState {
  /** undefined while the first check runs; null without a session. */
  operator: SessionOperator | null | undefined;
  /** Why the operator was sent to log in again ('gone': the session ended). */
  ended: boolean;
  start(answer: SessionAnswer): void;
  end(): void;
}

const SessionContext = createContext<SessionState>({ operator: null, ended: false, start: () => {}, end: () => {} });
export const useSession = () => useContext(SessionContext);

export interface LoginState {
  from?: string;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [operator, setOperator] = useState<SessionOperator | null | undefined>(undefined);
  const [ended, setEnded] = useState(false);
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    let live = true;
    adminCall<SessionAnswer>('get', '/session')
      .then((answer) => {
        if (!live) return;
        setCsrfToken(answer.csrfToken);
        setOperator(answer.operator);
      })
      .catch(() => live && setOperator(null));
    return () => {
      live = false;
    };
  }, []);
  const here = location.pathname + location.search;
  useEffect(
    () =>
      onSessionGone(() => {
        setOperator(null);
        setEnded(true);
        navigate(loginPath, { replace: true, state: { from: here } satisfies LoginState });
      }),
    [navigate, here],
  );
  const start = useCallback((answer: SessionAnswer) => {
    setCsrfToken(answer.csrfToken);
    setEnded(false);
    setOperator(answer.operator);
  }, []);
  const end = useCallback(() => {
    setCsrfToken('');
    setOperator(null);
  }, []);
  return <SessionContext.Provider value={{ operator, ended, start, end }}>{children}</SessionContext.Provider>;
}

/** An operator page: the login page without a session, a refusal without the role. */
export function OperatorGuard({ path, children, refused }: { path: string; children: ReactNode; refused: ReactNode }) {
  const { operator } = useSession();
  const location = useLocation();
  if (operator === undefined) return null;
  if (!operator) return <Navigate to={loginPath} replace state={{ from: location.pathname + location.search } satisfies LoginState} />;
  return mayOpen(operator.role, path) ? children : refused;
}
