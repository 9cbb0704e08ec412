// The router, built from schemas/catalogue.json: every catalogue entry becomes a route under
// /user with its title, its lazily loaded screen, and the member guard where access is member.
import { createElement, lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { basePath, indexPath, loginPath, pages, type RouteEntry } from './catalogue';
import { screenComponent } from './screen-loader';
import { onSessionEnded, sessionEnds, token } from '../api/session';
import { Layout } from './Layout';
import { useToLogin, type LoginState } from './login-state';
import { justWithdrawn } from './withdrawn';
import { watchActivity } from './activity';

/** The session's warning and end (src/app/SessionDialog.tsx), a chunk of its own. */
const SessionDialog = lazy(() => import('./SessionDialog').then((module) => ({ default: module.SessionDialog })));

/** Sends a visitor without a stored token to the login page, remembering where they were going.
 *  A route the catalogue marks `afterWithdrawal` also opens for the navigation withdrawal makes. */
function MemberGuard({ entry }: { entry: RouteEntry }) {
  const location = useLocation();
  if (!token() && !(entry.afterWithdrawal && justWithdrawn(location))) return <Navigate to={loginPath} replace state={{ from: location.pathname + location.search } satisfies LoginState} />;
  return createElement(screenComponent(entry.screen));
}

/** Development only: the form review page for product owners (src/dev/). In a production build
 *  the mode is "production" (whatever NODE_ENV says), so the route and its chunk are left out
 *  (tests/unit/dist-clean.test.ts). */
const devRoutes: RouteObject[] = import.meta.env.MODE === 'development' ? [{ path: '_forms/:form?', element: createElement(lazy(() => import('../dev/FormReviewPage'))) }] : [];

export function routeObjects(): RouteObject[] {
  return [
    {
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to={indexPath} replace /> },
        ...devRoutes,
        ...pages.map<RouteObject>(({ path, entry }) => ({
          path,
          element: entry.access === 'member' ? <MemberGuard entry={entry} /> : createElement(screenComponent(entry.screen)),
        })),
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

const ROUTES = routeObjects();

/** The one place that reacts when the API client ends a dead session: the member goes to the
 *  login page with a notice saying why, and back to where they were once logged in. */
function SessionEndedRedirect() {
  const toLogin = useToLogin();
  useEffect(() => onSessionEnded(toLogin), [toLogin]);
  return null;
}

/** The session dialog, from the moment this device holds a session (at the page's start, after a
 *  login here, or one in another tab: the cookies are read each second, as the dialog does), and
 *  the member's keys and presses noted as activity from then on. A
 *  visitor without a session never loads it; once loaded it stays, to say when the session ended
 *  (ADR 029). */
function SessionWatch() {
  const [held, setHeld] = useState(() => sessionEnds() !== null);
  // The member's keys and presses count as activity from the moment a session is held (ADR 037).
  useEffect(() => (held ? watchActivity() : undefined), [held]);
  useEffect(() => {
    if (held) return;
    const timer = window.setInterval(() => sessionEnds() && setHeld(true), 1000);
    return () => window.clearInterval(timer);
  }, [held]);
  return held ? (
    <Suspense fallback={null}>
      <SessionDialog />
    </Suspense>
  ) : null;
}

/** The app's routes, for a <BrowserRouter basename={basePath}> (main.tsx). Declarative routing:
 *  the app uses no loaders or actions, so the data router's code stays out of the bundle (ADR 017). */
export function AppRoutes() {
  const element = useRoutes(ROUTES);
  return (
    <>
      <SessionEndedRedirect />
      <SessionWatch />
      {element}
    </>
  );
}

export { basePath };
