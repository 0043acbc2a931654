import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { paths } from '../../config/paths.ts';
import { Logo } from '../logo.tsx';

/**
 * Public pages (spec §2.1): the product beside a focused card holding the page's form. Plain
 * elements styled by styles/plain.css, which copies the theme: the public pages render without
 * MUI (README, Performance); a public page that uses MUI parts brings them with its own chunk.
 */
export function AuthLayout() {
  const { t } = useTranslation('auth');
  return (
    <div className="c-auth">
      <aside className="c-auth-aside">
        <Logo to={paths.login} inverted />
        <div className="c-auth-pitch">
          <p className="c-auth-headline">{t('layout.headline')}</p>
          <p className="c-auth-subline">{t('layout.subline')}</p>
        </div>
        <p className="c-auth-copyright">
          © {new Date().getFullYear()} {t('layout.company')}
        </p>
      </aside>
      <main className="c-auth-main">
        <div className="c-container">
          <div className="c-auth-mobile-logo">
            <Logo to={paths.login} />
          </div>
          <div className="c-card">
            <Outlet />
          </div>
        </div>
      </main>
    </div>
  );
}
