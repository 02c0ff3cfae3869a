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

// Catalogs first, so the first paint is already in the visitor's language.
initI18n()
  .catch((error: unknown) => console.error('i18n failed to start', error))
  .finally(() => {
    const router = createAppRouter();
    createRoot(container).render(
      <StrictMode>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    );
  });
