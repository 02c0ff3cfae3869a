import { movementScreen } from '../features/commercial/movement-screens';
import { PaymentForm } from '../features/payments/payment-form';
import { PaymentView } from '../features/payments/payment-view';
import { PaymentsList } from '../features/payments/payments-list';

/** `/payments` (commercial.read). */
export const PaymentsPage = movementScreen('payments', PaymentsList);

/** `/payments/create` (commercial.write). */
export const PaymentCreatePage = movementScreen('paymentCreate', PaymentForm);

/** `/payments/view/:paymentId`. */
export const PaymentViewPage = movementScreen('paymentView', PaymentView);
