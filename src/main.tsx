import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes, basePath } from './app/router';
import { AlertProvider } from './app/alert';
import { startHeightReporting } from './app/frame';
import './app/styles.css';

startHeightReporting();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AlertProvider>
      <BrowserRouter basename={basePath}>
        <AppRoutes />
      </BrowserRouter>
    </AlertProvider>
  </StrictMode>,
);
