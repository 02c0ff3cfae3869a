import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/page-title';

/**
 * A money movement's screen (`collections`, `paymentCreate`, …): its title, `common:pages.<screen>`
 * as every screen's, over the side's list, form or view. Both sides' pages are made of these.
 */
export function movementScreen(screen: string, Body: ComponentType): ComponentType {
  function MovementScreen() {
    const { t } = useTranslation('common');
    return (
      <>
        <PageTitle title={t(`pages.${screen}`)} />
        <Body />
      </>
    );
  }
  return MovementScreen;
}
