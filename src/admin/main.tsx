// The back office (/admin/): its own entry and chunks (vite.admin.config.ts), nothing shared
// with the member site's bundle but the engine and the schemas' forms.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AdminRoutes } from './App';
import { basePath } from './catalogue';
import { SessionProvider } from './session';
import '../app/styles.css';
import './admin.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename={basePath}>
      <SessionProvider>
        <AdminRoutes />
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
