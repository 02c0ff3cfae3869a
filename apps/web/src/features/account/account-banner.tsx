import { can } from '@odontia/shared/permissions';
import { AlertTriangle, Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';

/**
 * The clinic's contract overdue (issue 19): in its grace period a warning with the day writing
 * stops, once read-only a danger banner saying that nothing can be saved; both with the due date
 * and, for an administrator, the link to /account to renew. Read from the session's profile, so
 * every level sees it; renewing reads the session again and the banner goes at once.
 */
export function AccountBanner() {
  const { t } = useTranslation('layout');
  const day = useCalendarDateFormat();
  const user = useSessionUser();
  if (!user) return null;
  const { contractState: state, planEndsAt, graceEndsAt, timeZone } = user.account;
  if (state === 'active') return null;
  const local = (instant: string | null, back = 0) =>
    instant
      ? day(
          new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
            new Date(new Date(instant).getTime() - back),
          ),
        )
      : '—';
  const dueDate = local(planEndsAt, 1);
  const readOnly = state === 'read_only';
  const Icon = readOnly ? Lock : AlertTriangle;
  return (
    <div
      className={`alert ${readOnly ? 'alert-danger' : 'alert-warning'} rounded-0 mb-0 d-flex gap-2 align-items-start px-4 py-2`}
      role={readOnly ? 'alert' : 'status'}
      data-testid="account-banner"
      data-state={state}
    >
      <Icon size={18} aria-hidden="true" className="flex-shrink-0 mt-1" />
      <div className="d-flex flex-wrap column-gap-3 row-gap-1 align-items-baseline">
        <span>
          {readOnly
            ? t('accountBanner.readOnly', { dueDate })
            : t('accountBanner.grace', { dueDate, until: local(graceEndsAt, 1) })}
        </span>
        {can(user.level, 'account.manage') ? (
          <Link to="/account" className="alert-link text-nowrap" data-testid="account-banner-link">
            {t('accountBanner.renew')}
          </Link>
        ) : (
          <span className="small">{t('accountBanner.askAdministrator')}</span>
        )}
      </div>
    </div>
  );
}
