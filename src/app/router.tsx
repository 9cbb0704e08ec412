// The router, built from schemas/catalogue.json: every catalogue entry becomes a route under
// /user with its title, its lazily loaded screen, and the member guard where access is member.
import { createElement } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
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

export function routeObjects(): RouteObject[] {
  return [
    {
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to={indexPath} replace /> },
        ...routes.map<RouteObject>((entry) => ({
          path: entry.path,
          element: entry.access === 'member' ? <MemberGuard entry={entry} /> : createElement(screenComponent(entry.screen)),
        })),
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

const ROUTES = routeObjects();

/** The app's routes, for a <BrowserRouter basename={basePath}> (main.tsx). Declarative routing:
 *  the app uses no loaders or actions, so the data router's code stays out of the bundle (ADR 017). */
export function AppRoutes() {
  return useRoutes(ROUTES);
}

export { basePath };
