import './portal.scss';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '../lib/i18n';
import { applyThemeToDocument, loadThemeSettings } from '../lib/theme-settings';
import { PortalApp } from './portal-app';
import { portalStart } from './portal-i18n';
import { PortalRouter } from './router';

/*
 * The patient portal (issue 37): the clinic's public page, its booking, the e-mail links' pages and
 * the patient's own pages. Its own entry and catalogs, so a patient never downloads the staff app.
 */

// Light or dark as the staff app decides it: the saved choice, `?layout_theme=`, else the system's.
const theme = loadThemeSettings();
applyThemeToDocument(theme, theme.menu.size);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

initI18n(portalStart)
  .catch((error: unknown) => console.error('i18n failed to start', error))
  .finally(() => {
    createRoot(container).render(
      <StrictMode>
        <PortalRouter>
          <PortalApp />
        </PortalRouter>
      </StrictMode>,
    );
  });
