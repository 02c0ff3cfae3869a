import { type UserLevel, userLevels } from '@odontia/shared/enums';
import type { ClinicUser } from '@odontia/shared/schemas/users';
import { IdCard, UserPlus, UserRoundCheck, UserX } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PaginationFooter } from '../../components/pagination-footer';
import { SearchBox } from '../../components/search-box';
import { SortHeader } from '../../components/sort-header';
import { TableBodyState } from '../../components/table-body-state';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useSessionUser } from '../auth/session';
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

/** One row: level choice and (de)activation, each a PATCH with the row's version. */
function UserRow({
  user,
  self,
  onDeactivate,
  onProfessional,
}: {
  user: ClinicUser;
  self: boolean;
  onDeactivate: () => void;
  onProfessional: () => void;
}) {
  const { t } = useTranslation(['users', 'layout']);
  const update = useUpdateUser();
  const status = statusOf(user);

  const change = async (body: { level?: UserLevel; active?: boolean }) => {
    try {
      const answer = await update.mutateAsync({ id: user.id, version: user.version, ...body });
      toastSuccess(answer.code);
    } catch (error) {
      toastApiError(error);
    }
  };

  return (
    <tr data-testid="user-row" data-email={user.email}>
      <td className="user-name fw-semibold">
        {user.completeName}
        {self ? <span className="badge bg-body-secondary text-body-emphasis border ms-2">{t('users:you')}</span> : null}
        {user.licenseNumber || user.specialty ? (
          <div className="small text-body-secondary fw-normal" data-testid="user-professional-summary">
            {[
              user.specialty,
              user.licenseNumber ? t('users:professional.licenseShort', { number: user.licenseNumber }) : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </div>
        ) : null}
      </td>
      <td className="user-email">{user.email}</td>
      <td className="user-level">
        <select
          className="form-select form-select-sm level-select"
          value={user.level}
          aria-label={t('users:levelOf', { name: user.completeName })}
          disabled={update.isPending || !user.active}
          onChange={(event) => void change({ level: event.target.value as UserLevel })}
        >
          {userLevels.map((level) => (
            <option key={level} value={level}>
              {t(`layout:levels.${level}`)}
            </option>
          ))}
        </select>
      </td>
      <td className="user-status">
        <span className={`badge ${statusBadge[status]}`}>{t(`users:status.${status}`)}</span>
      </td>
      <td className="user-actions text-end text-nowrap">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary me-2"
          onClick={onProfessional}
          data-testid="user-professional-open"
        >
          <IdCard size={15} aria-hidden="true" className="me-1" />
          {t('users:professional.action')}
          <span className="visually-hidden"> {user.completeName}</span>
        </button>
        {self ? null : user.active ? (
          // Spec §5: a user cannot deactivate their own user, so their own row does not offer it.
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={onDeactivate}>
            <UserX size={15} aria-hidden="true" className="me-1" />
            {t('users:deactivate.action')}
            <span className="visually-hidden"> {user.completeName}</span>
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-sm btn-outline-success"
            disabled={update.isPending}
            onClick={() => void change({ active: true })}
          >
            <UserRoundCheck size={15} aria-hidden="true" className="me-1" />
            {t('users:reactivate')}
            <span className="visually-hidden"> {user.completeName}</span>
          </button>
        )}
      </td>
    </tr>
  );
}

/** `/account/users`: the clinic's users, searched and paginated by the server. */
export function UsersTable() {
  const { t } = useTranslation('users');
  const me = useSessionUser();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState('completeName');
  const [inviting, setInviting] = useState(false);
  const [deactivating, setDeactivating] = useState<ClinicUser | null>(null);
  const [professional, setProfessional] = useState<ClinicUser | null>(null);
  const q = useDebouncedValue(search.trim(), 300);
  const query = useUsers({ q, page, pageSize, sort });

  const rows = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  const onSort = (next: string) => {
    setSort(next);
    setPage(1);
  };

  return (
    <section className="card users-card" data-testid="users-page">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('search')}
          placeholder={t('searchPlaceholder')}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
        <button type="button" className="btn btn-primary" onClick={() => setInviting(true)}>
          <UserPlus size={16} aria-hidden="true" className="me-2" />
          {t('invite.open')}
        </button>
      </div>
      <div className="table-responsive">
        <table className="table table-hover align-middle mb-0 data-table users-table" aria-busy={query.isFetching}>
          <caption className="visually-hidden">{t('caption')}</caption>
          <thead>
            <tr>
              <SortHeader column="completeName" sort={sort} onSort={onSort} label={t('columns.name')} />
              <SortHeader column="email" sort={sort} onSort={onSort} label={t('columns.email')} />
              <SortHeader column="level" sort={sort} onSort={onSort} label={t('columns.level')} />
              <th scope="col">{t('columns.status')}</th>
              <th scope="col" className="text-end">
                <span className="visually-hidden">{t('columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={5}
              isEmpty={rows.length === 0}
              emptyText={q ? t('noMatches', { q }) : t('empty')}
              emptyTestId="users-empty"
              errorText={t('loadError')}
              retryText={t('retry')}
            >
              {rows.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  self={user.id === me?.id}
                  onDeactivate={() => setDeactivating(user)}
                  onProfessional={() => setProfessional(user)}
                />
              ))}
            </TableBodyState>
          </tbody>
        </table>
      </div>
      <PaginationFooter
        page={page}
        pageSize={pageSize}
        total={total}
        onPage={setPage}
        label={t('pagination')}
        testId="users-range"
      />
      <InviteUserModal show={inviting} onClose={() => setInviting(false)} />
      <DeactivateUserModal user={deactivating} onClose={() => setDeactivating(null)} />
      <ProfessionalModal user={professional} onClose={() => setProfessional(null)} />
    </section>
  );
}
