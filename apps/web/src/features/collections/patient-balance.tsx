import { can } from '@odontia/shared/permissions';
import { Scale } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionUser } from '../../session/session';
import { useCurrencyFormat } from '../commercial/money-format';
import { usePatientBalance } from './api';

/**
 * The patient's current account at a glance in the medical history's header (issue 18): what the
 * patient owes (and how much of it is overdue) or has in their favour, linking to their ledger.
 * Nothing for a patient never billed, nor for a user who cannot read the commercial area.
 */
export function PatientBalanceBadge({ patientId }: { patientId: string }) {
  const { t } = useTranslation('collections');
  const user = useSessionUser();
  const allowed = user ? can(user.level, 'commercial.read') : false;
  const query = usePatientBalance(patientId, allowed);
  const money = useCurrencyFormat();
  const account = query.data;
  if (!allowed || !account?.customerId) return null;
  const balance = Number(account.balance);
  const overdue = Number(account.overdue) > 0;
  const text =
    balance > 0
      ? [
          t('balance.owes', { amount: money(account.balance, account.currency) }),
          overdue ? t('balance.overdue', { amount: money(account.overdue, account.currency) }) : null,
        ]
          .filter(Boolean)
          .join(' · ')
      : balance < 0
        ? t('balance.inFavour', { amount: money(account.balance.replace('-', ''), account.currency) })
        : t('balance.settled');
  const tone =
    balance > 0 ? (overdue ? 'text-bg-danger' : 'text-bg-warning') : balance < 0 ? 'text-bg-info' : 'text-bg-success';
  return (
    <Link
      to={`/cc-customers/${account.customerId}`}
      className={`badge ${tone} text-decoration-none d-inline-flex align-items-center gap-1`}
      title={t('balance.title')}
      data-testid="patient-balance"
      data-balance={account.balance}
    >
      <Scale size={12} aria-hidden="true" />
      <span className="visually-hidden">{t('balance.label')}: </span>
      {text}
    </Link>
  );
}
