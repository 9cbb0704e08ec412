// The back office's pages, from schemas/admin-catalogue.json: each screen a chunk of its own,
// loaded when first opened; operator pages behind the session and role guard.
import { createElement, lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router-dom';
import text from '../../messages/admin.ja.json';
import { format } from '../shared/format';
import { adminCall, forgetSessionTimes } from './api';
import { loginPath, menuFor, pages } from './catalogue';
import { label } from './format';
import { OperatorGuard, useSession } from './session';
import { clearDrafts, Loading } from './ui';
import { SessionWarning } from './SessionWarning';

const modules = import.meta.glob<{ default: ComponentType }>('./screens/*/index.tsx');
const screens = new Map<string, ComponentType>();
function screen(name: string): ComponentType {
  let component = screens.get(name);
  if (!component) {
    const load = modules[`./screens/${name}/index.tsx`];
    if (!load) throw new Error(`No back-office screen ${name}`);
    component = lazy(load);
    screens.set(name, component);
  }
  return component;
}

function Refused() {
  return (
    <p className="notice notice--error" role="alert">
      {text.common.refused}
    </p>
  );
}

function Title() {
  const location = useLocation();
  const path = location.pathname.replace(/^\/+|\/+$/g, '');
  const page = pages.find((p) => matches(p.path, path));
  const title = page?.title ?? text.site.name;
  useEffect(() => {
    document.title = format(text.site.titleFormat, { title, site: text.site.name });
  }, [title]);
  return <h1 className="admin__title">{title}</h1>;
}

/** A catalogue path ("applications/:registerNumber") against a location path. */
function matches(pattern: string, path: string): boolean {
  const a = pattern.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === b[i]);
}

function Layout() {
  const { operator, end } = useSession();
  const navigate = useNavigate();
  const logout = async () => {
    await adminCall('post', '/logout').catch(() => undefined);
    forgetSessionTimes();
    clearDrafts();
    end();
    navigate(loginPath, { replace: true });
  };
  return (
    <div className="admin">
      <a className="skip-link" href="#admin-main">
        {text.common.skip}
      </a>
      <header className="admin__header">
        <p className="admin__site">
          <Link to="/">{text.site.name}</Link>
        </p>
        {operator && (
          <div className="admin__who">
            <span>{format(text.common.who, { name: operator.name, role: label('roles', operator.role) })}</span>
            <button type="button" className="button button--small" onClick={() => void logout()}>
              {text.common.logout}
            </button>
          </div>
        )}
      </header>
      {operator && <SessionWarning onLogout={() => void logout()} />}
      {operator && (
        <nav className="admin__nav" aria-label={text.common.menu}>
          <ul>
            {menuFor(operator.role).map((page) => (
              <li key={page.path}>
                <Link to={`/${page.path}`}>{page.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main id="admin-main" className="admin__main" tabIndex={-1}>
        <Title />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      ...pages.map<RouteObject>((page) => {
        const element = createElement(screen(page.screen));
        return page.path === ''
          ? { index: true, element: <OperatorGuard path="" refused={<Refused />}>{element}</OperatorGuard> }
          : { path: page.path, element: page.access === 'public' ? element : <OperatorGuard path={page.path} refused={<Refused />}>{element}</OperatorGuard> };
      }),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function AdminRoutes() {
  return useRoutes(routes);
}
