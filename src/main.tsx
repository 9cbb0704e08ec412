import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createRouter } from './app/router';
import { AlertProvider } from './app/alert';
import { startHeightReporting } from './app/frame';
import './app/styles.css';

startHeightReporting();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AlertProvider>
      <RouterProvider router={createRouter()} />
    </AlertProvider>
  </StrictMode>,
);
