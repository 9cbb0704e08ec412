// The router, built from schemas/catalogue.json: every catalogue entry becomes a route under
// /user with its title, its lazily loaded screen, and the member guard where access is member.
import { createElement, lazy } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router-dom';
import { basePath, indexPath, loginPath, routes, type RouteEntry } from './catalogue';
import { screenComponent } from './screen-loader';
import { token } from './session';
import { Layout } from './Layout';

/** Sends a visitor without a stored token to the login page, remembering where they were going. */
function MemberGuard({ entry }: { entry: RouteEntry }) {
  const location = useLocation();
  if (!token()) return <Navigate to={loginPath} replace state={{ from: location.pathname + location.search }} />;
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

export const createRouter = () => createBrowserRouter(routeObjects(), { basename: basePath });
