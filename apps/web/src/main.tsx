import 'react-toastify/ReactToastify.css';
import './styles/app.scss';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { initI18n } from './lib/i18n';
import { writeTimezoneCookie } from './lib/timezone-cookie';

writeTimezoneCookie();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// The catalogs and the page's own chunks load together (creating the router starts its lazy
// loads); the first paint waits for the catalogs, so it is already in the visitor's language.
const catalogsLoaded = initI18n();
const router = createAppRouter();
catalogsLoaded
  .catch((error: unknown) => console.error('i18n failed to start', error))
  .finally(() => {
    createRoot(container).render(
      <StrictMode>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    );
  });
