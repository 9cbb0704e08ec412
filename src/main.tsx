import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes, basePath } from './app/router';
import { AlertProvider } from './app/alert';
import { startHeightReporting } from './app/frame';
import './app/styles.css';

startHeightReporting();
const root = createRoot(document.getElementById('root')!);
// The first render as a transition: React renders it in slices and yields to the browser
// between them, so a long form (registration renders all four steps) does not block input on
// a slow phone; the server's app shell stays on screen until it commits (ADR 017).
startTransition(() =>
  root.render(
    <StrictMode>
      <AlertProvider>
        <BrowserRouter basename={basePath}>
          <AppRoutes />
        </BrowserRouter>
      </AlertProvider>
    </StrictMode>,
  ),
);
