// The router, built from schemas/catalogue.json: every catalogue entry becomes a route under
// /user with its title, its lazily loaded screen, and the member guard where access is member.
import { createElement } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router-dom';
import { basePath, indexPath, loginPath, routes, type RouteEntry } from './catalogue';
import { screenComponent } from './screen-loader';
import { onSessionEnded, token } from '../api/session';
import { Layout } from './Layout';
import type { LoginState } from './login-state';

/** Sends a visitor without a stored token to the login page, remembering where they were going. */
function MemberGuard({ entry }: { entry: RouteEntry }) {
  const location = useLocation();
  if (!token()) return <Navigate to={loginPath} replace state={{ from: location.pathname + location.search } satisfies LoginState} />;
  return createElement(screenComponent(entry.screen));
}

export function routeObjects(): RouteObject[] {
  return [
    {
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to={indexPath} replace /> },
        ...routes.map<RouteObject>((entry) => ({
          path: entry.path,
          handle: { title: entry.title, access: entry.access },
          element: entry.access === 'member' ? <MemberGuard entry={entry} /> : createElement(screenComponent(entry.screen)),
        })),
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

export function createRouter() {
  const router = createBrowserRouter(routeObjects(), { basename: basePath });
  // The API client ends a dead session once; this is the one place that reacts to it.
  onSessionEnded(() => {
    const { pathname: full, search } = router.state.location;
    // The router's own location carries the basename; `navigate` adds it again.
    const pathname = full.startsWith(basePath + '/') ? full.slice(basePath.length) : full;
    const state: LoginState = { notice: 'sessionEnded', from: pathname.startsWith(loginPath) ? undefined : pathname + search };
    void router.navigate(loginPath, { replace: true, state });
  });
  return router;
}
