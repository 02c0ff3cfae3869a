import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { PaymentForm } from '../features/payments/payment-form';
import { PaymentView } from '../features/payments/payment-view';
import { PaymentsList } from '../features/payments/payments-list';

/** `/payments` (commercial.read). */
export function PaymentsPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.payments')} />
      <PaymentsList />
    </>
  );
}

/** `/payments/create` (commercial.write). */
export function PaymentCreatePage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.paymentCreate')} />
      <PaymentForm />
    </>
  );
}

/** `/payments/view/:paymentId`. */
export function PaymentViewPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.paymentView')} />
      <PaymentView />
    </>
  );
}
