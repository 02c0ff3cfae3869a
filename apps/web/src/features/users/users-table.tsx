import { type StaffLevel, staffLevels, userLevels } from '@odontia/shared/enums';
import type { ClinicUser } from '@odontia/shared/schemas/users';
import { IdCard, UserPlus, UserRoundCheck, UserX } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table';
import { IconTextButton } from '../../components/icon-button';
import { SearchBox } from '../../components/search-box';
import { ValueOptions } from '../../components/value-options';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import { useUpdateUser, useUsers } from './api';
import { DeactivateUserModal } from './deactivate-user-modal';
import { InviteUserModal } from './invite-user-modal';
import { ProfessionalModal } from './professional-modal';

const pageSize = 20;
function statusOf(user: ClinicUser): 'active' | 'pending' | 'inactive' {
  if (!user.active) return 'inactive';
  return user.activatedAt ? 'active' : 'pending';
}

const statusBadge = { active: 'text-bg-success', pending: 'text-bg-warning', inactive: 'text-bg-secondary' } as const;

/** A PATCH of the user with the row's version; the toast says how it went. */
function useChangeUser(user: ClinicUser) {
  const update = useUpdateUser();
  const change = async (body: { level?: StaffLevel; active?: boolean }) => {
    try {
      const answer = await update.mutateAsync({ id: user.id, version: user.version, ...body });
      toastSuccess(answer.code);
    } catch (error) {
      toastApiError(error);
    }
  };
  return { change, pending: update.isPending };
}

function LevelSelect({ user }: { user: ClinicUser }) {
  const { t } = useTranslation(['users', 'layout']);
  const { change, pending } = useChangeUser(user);
  return (
    <select
      className="form-select form-select-sm level-select"
      value={user.level}
      aria-label={t('users:levelOf', { name: user.completeName })}
      // A patient's portal membership (issue 37) stays a customer: its access is managed from the patient.
      disabled={pending || !user.active || user.level === 'customer'}
      onChange={(event) => void change({ level: event.target.value as StaffLevel })}
    >
      <ValueOptions
        values={user.level === 'customer' ? userLevels : staffLevels}
        label={(level) => t(`layout:levels.${level}`)}
      />
    </select>
  );
}

function ReactivateButton({ user }: { user: ClinicUser }) {
  const { t } = useTranslation('users');
  const { change, pending } = useChangeUser(user);
  return (
    <IconTextButton
      icon={UserRoundCheck}
      className="btn btn-sm btn-outline-success"
      onClick={() => void change({ active: true })}
      disabled={pending}
      size={15}
      iconClassName="me-1"
    >
      {t('reactivate')}
      <span className="visually-hidden"> {user.completeName}</span>
    </IconTextButton>
  );
}

function useUserColumns({
  me,
  onDeactivate,
  onProfessional,
}: {
  me: string | undefined;
  onDeactivate: (user: ClinicUser) => void;
  onProfessional: (user: ClinicUser) => void;
}): Column<ClinicUser>[] {
  const { t } = useTranslation('users');
  return [
    {
      key: 'completeName',
      header: t('columns.name'),
      sortable: true,
      primary: true,
      className: 'user-name fw-semibold',
      cell: (user) => (
        <>
          {user.completeName}
          {user.id === me ? (
            <span className="badge bg-body-secondary text-body-emphasis border ms-2">{t('you')}</span>
          ) : null}
          {user.licenseNumber || user.specialty ? (
            <div className="small text-body-secondary fw-normal" data-testid="user-professional-summary">
              {[
                user.specialty,
                user.licenseNumber ? t('professional.licenseShort', { number: user.licenseNumber }) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </div>
          ) : null}
        </>
      ),
    },
    { key: 'email', header: t('columns.email'), sortable: true, className: 'user-email', cell: (user) => user.email },
    {
      key: 'level',
      header: t('columns.level'),
      sortable: true,
      className: 'user-level',
      cell: (user) => <LevelSelect user={user} />,
    },
    {
      key: 'status',
      header: t('columns.status'),
      className: 'user-status',
      cell: (user) => {
        const status = statusOf(user);
        return <span className={`badge ${statusBadge[status]}`}>{t(`status.${status}`)}</span>;
      },
    },
    {
      key: 'actions',
      header: <span className="visually-hidden">{t('columns.actions')}</span>,
      className: 'user-actions text-end text-nowrap',
      cell: (user) => (
        <>
          <IconTextButton
            icon={IdCard}
            className="btn btn-sm btn-outline-secondary me-2"
            onClick={() => onProfessional(user)}
            testId="user-professional-open"
            size={15}
            iconClassName="me-1"
          >
            {t('professional.action')}
            <span className="visually-hidden"> {user.completeName}</span>
          </IconTextButton>
          {user.id === me ? null : user.active ? (
            // Spec §5: a user cannot deactivate their own user, so their own row does not offer it.
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => onDeactivate(user)}>
              <UserX size={15} aria-hidden="true" className="me-1" />
              {t('deactivate.action')}
              <span className="visually-hidden"> {user.completeName}</span>
            </button>
          ) : (
            <ReactivateButton user={user} />
          )}
        </>
      ),
    },
  ];
}

/** `/account/users`: the clinic's users, searched and paginated by the server. */
export function UsersTable() {
  const { t } = useTranslation('users');
  const me = useSessionUser();
  const list = useListState({ sort: 'completeName' });
  const [inviting, setInviting] = useState(false);
  const [deactivating, setDeactivating] = useState<ClinicUser | null>(null);
  const [professional, setProfessional] = useState<ClinicUser | null>(null);
  const q = list.search;
  const query = useUsers({ q, page: list.page, pageSize, sort: list.sort });
  const columns = useUserColumns({ me: me?.id, onDeactivate: setDeactivating, onProfessional: setProfessional });

  return (
    <section className="card users-card" data-testid="users-page">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('search')}
          placeholder={t('searchPlaceholder')}
          value={list.searchText}
          autoComplete="off"
          data-testid="users-search"
          onChange={(event) => list.setSearchText(event.target.value)}
        />
        <button type="button" className="btn btn-primary" onClick={() => setInviting(true)}>
          <UserPlus size={16} aria-hidden="true" className="me-2" />
          {t('invite.open')}
        </button>
      </div>
      <DataTable<ClinicUser>
        label={t('caption')}
        className="table-hover users-table"
        columns={columns}
        query={query}
        rowKey={(user) => user.id}
        rowProps={(user) => ({ 'data-testid': 'user-row', 'data-email': user.email })}
        sort={{ value: list.sort, onSort: list.setSort }}
        emptyText={q ? t('noMatches', { q }) : t('empty')}
        emptyTestId="users-empty"
        errorText={t('loadError')}
        retryText={t('retry')}
        pagination={{ ...pagesOf(list, pageSize), label: t('pagination'), testId: 'users-range' }}
      />
      <InviteUserModal show={inviting} onClose={() => setInviting(false)} />
      <DeactivateUserModal user={deactivating} onClose={() => setDeactivating(null)} />
      <ProfessionalModal user={professional} onClose={() => setProfessional(null)} />
    </section>
  );
}
