import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createRouter } from './app/router';
import { AlertProvider } from './app/alert';
import { showElement, startHeightReporting } from './app/frame';
import { RevealContext } from './engine/reveal';
import './app/styles.css';

startHeightReporting();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RevealContext.Provider value={showElement}>
      <AlertProvider>
        <RouterProvider router={createRouter()} />
      </AlertProvider>
    </RevealContext.Provider>
  </StrictMode>,
);
