import { Suspense, useEffect } from 'react';
import { matchPath, Outlet, useLocation } from 'react-router-dom';
import { routes } from './catalogue';
import messages from '../../messages/ja.json';
import { reportHeightBurst } from './frame';
import { format } from '../shared/format';
import { ScreenErrorBoundary } from './ScreenErrorBoundary';

export function Layout() {
  const location = useLocation();
  const title = routes.find((entry) => matchPath(entry.path, location.pathname))?.title;
  useEffect(() => {
    document.title = title ? format(messages.app.titleFormat, { title, site: messages.site.name }) : messages.site.name;
    window.scrollTo(0, 0);
    reportHeightBurst();
  }, [location.pathname, title]);
  return (
    <div className="page">
      <header className="page__header">
        <p className="page__site">{messages.site.name}</p>
        {title && <h1 className="page__title">{title}</h1>}
      </header>
      <main className="page__main">
        <ScreenErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<p className="loading">{messages.app.loading}</p>}>
            <Outlet />
          </Suspense>
        </ScreenErrorBoundary>
      </main>
    </div>
  );
}
