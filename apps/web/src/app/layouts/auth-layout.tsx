import { Outlet } from 'react-router';
import { LanguageSelect } from '../../components/language-select';
import { OdontiaWordmark } from '../../components/odontia-logo';
import { useWideAuthCard } from '../route-handle';

/** The plain layout of the public pages: a centred card with the brand and the language switcher. */
export function AuthLayout() {
  const wide = useWideAuthCard();
  return (
    <div className="auth-layout">
      <div className="auth-toolbar">
        <LanguageSelect />
      </div>
      <main className="auth-main">
        <div className={`auth-card card${wide ? ' auth-card-wide' : ''}`}>
          <div className="card-body">
            <div className="auth-brand">
              <OdontiaWordmark size={40} />
            </div>
            <Outlet />
          </div>
        </div>
      </main>
    </div>
  );
}
