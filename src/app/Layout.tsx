import { Suspense, useEffect, useRef } from 'react';
import { matchPath, Outlet, useLocation } from 'react-router-dom';
import { pages } from './catalogue';
import messages from '../../messages/ja.json';
import { reportHeightBurst, showInParent } from './frame';
import { format } from '../shared/format';
import { ScreenErrorBoundary } from './ScreenErrorBoundary';
import { LiveRegion } from '../engine/LiveRegion';

export function Layout() {
  const location = useLocation();
  const title = pages.find((page) => matchPath(page.path, location.pathname))?.title;
  const firstScreen = useRef(true);
  useEffect(() => {
    document.title = title ? format(messages.app.titleFormat, { title, site: messages.site.name }) : messages.site.name;
  }, [title]);
  useEffect(() => {
    window.scrollTo(0, 0);
    // A new screen starts at its top, as a page would: the parent keeps its own scroll position
    // otherwise. The very first screen leaves the parent page where the member put it.
    if (firstScreen.current) firstScreen.current = false;
    else {
      showInParent(0);
      // Focus starts at the new screen's title, as after a page load, not on the link that left.
      document.getElementById('page-title')?.focus({ preventScroll: true });
    }
    reportHeightBurst();
  }, [location.pathname]);
  return (
    <div className="page">
      {/* Named landmarks: inside the parent's frame, the parent page has its own header and main. */}
      <header className="page__header" aria-label={messages.site.name}>
        <p className="page__site">{messages.site.name}</p>
        {title && (
          <h1 id="page-title" className="page__title" tabIndex={-1}>
            {title}
          </h1>
        )}
      </header>
      <main className="page__main" tabIndex={-1} aria-labelledby={title ? 'page-title' : undefined} aria-label={title ? undefined : messages.site.name}>
        <ScreenErrorBoundary resetKey={location.pathname}>
          <Suspense
            fallback={
              <div className="spinner" role="status" aria-label={messages.app.loading}>
                <span className="spinner__circle" />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </ScreenErrorBoundary>
        <LiveRegion />
      </main>
    </div>
  );
}
