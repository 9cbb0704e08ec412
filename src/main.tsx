import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes, basePath } from './app/router';
import { AlertProvider } from './app/alert';
import { showElement, startHeightReporting, startTitleReporting } from './app/frame';
import { RevealContext } from './engine/reveal';
import './app/styles.css';

startHeightReporting();
startTitleReporting();
const root = createRoot(document.getElementById('root')!);
// The first render as a transition: React renders it in slices and yields to the browser
// between them, so a long form (registration renders all four steps) does not block input on
// a slow phone; the server's app shell stays on screen until it commits (ADR 017).
startTransition(() =>
  root.render(
    <StrictMode>
      <RevealContext.Provider value={showElement}>
        <AlertProvider>
          <BrowserRouter basename={basePath}>
            <AppRoutes />
          </BrowserRouter>
        </AlertProvider>
      </RevealContext.Provider>
    </StrictMode>,
  ),
);
