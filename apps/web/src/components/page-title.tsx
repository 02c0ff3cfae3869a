import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { pageTitle, setDocumentTitle } from '../lib/document-title';

/** Sets the tab title to 'Odontia | <title>'; renders nothing. */
export function PageTitle({ title }: { title?: string | null }) {
  useEffect(() => {
    setDocumentTitle(pageTitle(title));
  }, [title]);
  return null;
}

/** A route's page that is only its screen, under its title (`common:pages.<page>`). */
export function TitledPage({ page, screen }: { page: string; screen: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t(`pages.${page}`)} />
      {screen}
    </>
  );
}

/** A page a mailed link opens: its screen is keyed by the link's token, so another link starts afresh. */
export function LinkPage({
  page,
  param = 'token',
  screen,
}: {
  page: string;
  param?: string;
  screen: (token: string) => ReactNode;
}) {
  const token = useParams()[param] ?? '';
  return <TitledPage page={page} screen={screen(token)} />;
}
