import { can, grantableScopes, type PermissionAction } from '@odontia/shared/permissions';
import {
  type ApiToken,
  apiTokenMaxDays,
  apiTokenRateLimit,
  type MemberApiToken,
} from '@odontia/shared/schemas/api-tokens';
import { Ban, Copy, KeyRound, Plus, Users } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../components/busy-button';
import { CaptionedTable } from '../../components/captioned-table';
import { ConfirmDelete } from '../../components/confirm-delete';
import { IconCard } from '../../components/icon-card';
import { PaginationFooter } from '../../components/pagination-footer';
import { useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import {
  type TokenKind,
  useApiTokens,
  useCreateApiToken,
  useMemberApiTokens,
  useRevokeApiToken,
  useRevokeMemberApiToken,
} from './api';

const expiryChoices = [7, 30, 90, 180, apiTokenMaxDays] as const;
const pageSize = 20;

/** A scope's label key: `scopes.patients_read` (a dot would be read as a nesting by i18next). */
const scopeKey = (scope: string) => `scopes.${scope.replace('.', '_')}`;

/** The secret of the token just made: shown once, with a button that copies it. */
function NewSecret({ secret, onDismiss }: { secret: string; onDismiss: () => void }) {
  const { t } = useTranslation('apiTokens');
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // Without the clipboard (plain http), the text is selected for Ctrl+C.
      input.current?.select();
    }
  };
  return (
    <div className="alert alert-success" role="status" data-testid="api-token-secret">
      <p className="fw-semibold mb-2">{t('secret.title')}</p>
      <p className="small mb-2">{t('secret.once')}</p>
      <label htmlFor={inputId} className="visually-hidden">
        {t('secret.label')}
      </label>
      <div className="input-group mb-2">
        <input
          ref={input}
          id={inputId}
          className="form-control font-monospace"
          readOnly
          value={secret}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="api-token-secret-value"
        />
        <button
          type="button"
          className="btn btn-outline-secondary"
          onClick={() => void copy()}
          data-testid="api-token-copy"
        >
          <Copy size={16} aria-hidden="true" className="me-1" />
          {copied ? t('secret.copied') : t('secret.copy')}
        </button>
      </div>
      <button type="button" className="btn btn-sm btn-success" onClick={onDismiss} data-testid="api-token-dismiss">
        {t('secret.dismiss')}
      </button>
    </div>
  );
}

function CreateTokenForm({ kind, onCreated }: { kind: TokenKind; onCreated: (secret: string) => void }) {
  const { t } = useTranslation('apiTokens');
  const user = useSessionUser();
  const create = useCreateApiToken(kind);
  const ids = { name: useId(), expiry: useId(), rate: useId(), scopes: useId() };
  const scopes: PermissionAction[] = user ? grantableScopes(kind === 'clinic' ? 'administrator' : user.level) : [];
  const [name, setName] = useState('');
  const [expiresInDays, setExpiresInDays] = useState(90);
  const [rate, setRate] = useState(String(apiTokenRateLimit.default));
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (name.trim() === '') return setProblem('name');
    if (chosen.length === 0) return setProblem('scopes');
    setProblem(null);
    create.mutate(
      { name: name.trim(), expiresInDays, scopes: chosen, rateLimitPerMinute: Number(rate) },
      {
        onSuccess: (answer) => {
          onCreated(answer.secret);
          setName('');
          setChosen([]);
        },
      },
    );
  };
  const toggle = (scope: string, on: boolean) =>
    setChosen((current) => (on ? [...current, scope] : current.filter((item) => item !== scope)));
  return (
    <form onSubmit={submit} noValidate data-testid="api-token-form">
      <div className="row g-3">
        <div className="col-12 col-md-6">
          <label htmlFor={ids.name} className="form-label">
            {t('form.name')}
          </label>
          <input
            id={ids.name}
            className={`form-control${problem === 'name' ? ' is-invalid' : ''}`}
            value={name}
            maxLength={80}
            onChange={(event) => setName(event.target.value)}
            aria-describedby={problem === 'name' ? `${ids.name}-error` : undefined}
            data-testid="api-token-name"
          />
          {problem === 'name' ? (
            <div id={`${ids.name}-error`} className="invalid-feedback">
              {t('form.nameRequired')}
            </div>
          ) : null}
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={ids.expiry} className="form-label">
            {t('form.expiry')}
          </label>
          <select
            id={ids.expiry}
            className="form-select"
            value={expiresInDays}
            onChange={(event) => setExpiresInDays(Number(event.target.value))}
            data-testid="api-token-expiry"
          >
            {expiryChoices.map((days) => (
              <option key={days} value={days}>
                {t('form.days', { count: days })}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={ids.rate} className="form-label">
            {t('form.rate')}
          </label>
          <input
            id={ids.rate}
            type="number"
            className="form-control"
            min={apiTokenRateLimit.min}
            max={apiTokenRateLimit.max}
            value={rate}
            onChange={(event) => setRate(event.target.value)}
            data-testid="api-token-rate"
          />
        </div>
      </div>
      <fieldset className="mt-3" aria-describedby={problem === 'scopes' ? `${ids.scopes}-error` : undefined}>
        <legend className="form-label fs-6">{t('form.scopes')}</legend>
        <div className="row row-cols-1 row-cols-sm-2 row-cols-lg-3 g-1">
          {scopes.map((scope) => (
            <div className="col" key={scope}>
              <div className="form-check">
                <input
                  id={`${ids.scopes}-${scope}`}
                  className="form-check-input"
                  type="checkbox"
                  checked={chosen.includes(scope)}
                  onChange={(event) => toggle(scope, event.target.checked)}
                  data-testid={`api-token-scope-${scope}`}
                />
                <label className="form-check-label" htmlFor={`${ids.scopes}-${scope}`}>
                  {t(scopeKey(scope))}
                </label>
              </div>
            </div>
          ))}
        </div>
        {problem === 'scopes' ? (
          <div id={`${ids.scopes}-error`} className="text-danger small mt-1">
            {t('form.scopesRequired')}
          </div>
        ) : null}
      </fieldset>
      <div className="mt-3">
        <BusyButton
          className="btn btn-primary"
          icon={Plus}
          busy={create.isPending}
          onClick={() => submit()}
          testId="api-token-create"
        >
          {t('form.create')}
        </BusyButton>
      </div>
    </form>
  );
}

const stateClass: Record<ApiToken['state'], string> = {
  active: 'text-bg-success',
  expired: 'text-bg-secondary',
  revoked: 'text-bg-danger',
};

function TokenList({ kind }: { kind: TokenKind }) {
  const { t } = useTranslation('apiTokens');
  const [page, setPage] = useState(1);
  const tokens = useApiTokens(kind, page, pageSize);
  const revoke = useRevokeApiToken(kind);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const format = useInstantFormat('dateTime');
  const rows = tokens.data?.data ?? [];
  return (
    <>
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone is reached by keyboard.
        tabIndex={0}
        className="table-responsive"
        aria-label={t('list.caption')}
      >
        <CaptionedTable
          wrapperClassName=""
          className="table table-sm align-middle mb-0"
          testId="api-token-list"
          caption={t('list.caption')}
          head={[
            { label: t('list.name') },
            { label: t('list.prefix'), className: 'd-none d-sm-table-cell' },
            { label: t('list.scopes'), className: 'd-none d-md-table-cell' },
            { label: t('list.expires') },
            { label: t('list.lastUsed'), className: 'd-none d-lg-table-cell' },
            { label: t('list.state') },
            { label: <span className="visually-hidden">{t('list.actions')}</span> },
          ]}
        >
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={7} className="text-body-secondary">
                  {tokens.isLoading ? t('list.loading') : t('list.empty')}
                </td>
              </tr>
            ) : null}
            {rows.map((token) => (
              <tr key={token.id} data-testid={`api-token-row-${token.id}`}>
                <td>{token.name}</td>
                <td className="d-none d-sm-table-cell">
                  <code>{token.prefix}…</code>
                </td>
                <td className="d-none d-md-table-cell small">
                  {token.scopes.map((scope) => t(scopeKey(scope))).join(', ')}
                </td>
                <td className="small">{format(token.expiresAt)}</td>
                <td className="d-none d-lg-table-cell small">
                  {token.lastUsedAt ? format(token.lastUsedAt) : t('list.never')}
                </td>
                <td>
                  <span className={`badge ${stateClass[token.state]}`} data-testid="api-token-state">
                    {t(`state.${token.state}`)}
                  </span>
                </td>
                <td className="text-end">
                  {token.state === 'active' ? (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger"
                      onClick={() => setRevoking(token)}
                      aria-label={t('list.revokeNamed', { name: token.name })}
                      data-testid="api-token-revoke"
                    >
                      <Ban size={14} aria-hidden="true" />
                      <span className="d-none d-sm-inline ms-1">{t('list.revoke')}</span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </CaptionedTable>
      </section>
      {tokens.data ? (
        <PaginationFooter
          page={page}
          pageSize={pageSize}
          total={tokens.data.total}
          onPage={setPage}
          label={t('list.caption')}
        />
      ) : null}
      <ConfirmDelete
        show={revoking !== null}
        title={t('revoke.title')}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
        pending={revoke.isPending}
        confirmLabel={t('revoke.confirm')}
        testId="api-token-revoke-dialog"
      >
        {t('revoke.text', { name: revoking?.name ?? '' })}
      </ConfirmDelete>
    </>
  );
}

/**
 * The team's personal tokens (issue 42; tokens.manage): whose, name, prefix, scopes, dates and
 * state; the administrator revokes one after a confirmation (the token stops working at once).
 */
function TeamTokenList() {
  const { t } = useTranslation('apiTokens');
  const [page, setPage] = useState(1);
  const tokens = useMemberApiTokens(page, pageSize);
  const revoke = useRevokeMemberApiToken();
  const [revoking, setRevoking] = useState<MemberApiToken | null>(null);
  const format = useInstantFormat('dateTime');
  const rows = tokens.data?.data ?? [];
  return (
    <>
      <p className="text-body-secondary small">{t('team.intro')}</p>
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone is reached by keyboard.
        tabIndex={0}
        className="table-responsive"
        aria-label={t('team.caption')}
      >
        <CaptionedTable
          wrapperClassName=""
          className="table table-sm align-middle mb-0"
          testId="api-token-team-list"
          caption={t('team.caption')}
          head={[
            { label: t('team.owner') },
            { label: t('list.name') },
            { label: t('list.prefix'), className: 'd-none d-sm-table-cell' },
            { label: t('list.scopes'), className: 'd-none d-md-table-cell' },
            { label: t('team.created'), className: 'd-none d-lg-table-cell' },
            { label: t('list.expires'), className: 'd-none d-sm-table-cell' },
            { label: t('list.lastUsed'), className: 'd-none d-lg-table-cell' },
            { label: t('list.state') },
            { label: <span className="visually-hidden">{t('list.actions')}</span> },
          ]}
        >
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={9} className="text-body-secondary">
                  {tokens.isLoading ? t('list.loading') : t('team.empty')}
                </td>
              </tr>
            ) : null}
            {rows.map((token) => (
              <tr key={token.id} data-testid={`api-token-team-row-${token.id}`}>
                <td>{token.ownerName ?? '—'}</td>
                <td>{token.name}</td>
                <td className="d-none d-sm-table-cell">
                  <code>{token.prefix}…</code>
                </td>
                <td className="d-none d-md-table-cell small">
                  {token.scopes.map((scope) => t(scopeKey(scope))).join(', ')}
                </td>
                <td className="d-none d-lg-table-cell small">{format(token.createdAt)}</td>
                <td className="d-none d-sm-table-cell small">{format(token.expiresAt)}</td>
                <td className="d-none d-lg-table-cell small">
                  {token.lastUsedAt ? format(token.lastUsedAt) : t('list.never')}
                </td>
                <td>
                  {/* "Revocado el …" wraps on a phone instead of pushing the table sideways. */}
                  <span
                    className={`badge text-wrap text-start ${stateClass[token.state]}`}
                    data-testid="api-token-team-state"
                  >
                    {token.state === 'revoked' && token.revokedAt
                      ? t('team.revokedAt', { at: format(token.revokedAt) })
                      : t(`state.${token.state}`)}
                  </span>
                </td>
                <td className="text-end">
                  {token.state === 'active' ? (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger"
                      onClick={() => setRevoking(token)}
                      aria-label={t('team.revokeNamed', { name: token.name, owner: token.ownerName ?? '' })}
                      data-testid="api-token-team-revoke"
                    >
                      <Ban size={14} aria-hidden="true" />
                      <span className="d-none d-sm-inline ms-1">{t('list.revoke')}</span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </CaptionedTable>
      </section>
      {tokens.data ? (
        <PaginationFooter
          page={page}
          pageSize={pageSize}
          total={tokens.data.total}
          onPage={setPage}
          label={t('team.caption')}
        />
      ) : null}
      <ConfirmDelete
        show={revoking !== null}
        title={t('revoke.title')}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
        pending={revoke.isPending}
        confirmLabel={t('revoke.confirm')}
        testId="api-token-team-revoke-dialog"
      >
        {t('team.revokeText', { name: revoking?.name ?? '', owner: revoking?.ownerName ?? '' })}
      </ConfirmDelete>
    </>
  );
}

/** The card "Tokens personales del equipo": only for who may manage them (tokens.manage). */
export function TeamTokensCard() {
  const { t } = useTranslation('apiTokens');
  const user = useSessionUser();
  if (!user || !can(user.level, 'tokens.manage')) return null;
  return (
    <IconCard title={t('team.title')} icon={<Users size={18} aria-hidden="true" />} className="profile-card">
      <div data-testid="api-tokens-team">
        <TeamTokenList />
      </div>
    </IconCard>
  );
}

/** A person's or the clinic's API tokens: make one (its secret shown once), list them, revoke one. */
export function ApiTokensPanel({ kind }: { kind: TokenKind }) {
  const { t } = useTranslation('apiTokens');
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <div className="d-flex flex-column gap-4" data-testid={`api-tokens-${kind}`}>
      <p className="mb-0 text-body-secondary">{t(`intro.${kind}`)}</p>
      <IconCard title={t('form.title')} icon={<KeyRound size={18} aria-hidden="true" />} className="profile-card">
        {secret ? <NewSecret secret={secret} onDismiss={() => setSecret(null)} /> : null}
        <CreateTokenForm kind={kind} onCreated={setSecret} />
      </IconCard>
      <IconCard title={t('list.title')} icon={<KeyRound size={18} aria-hidden="true" />} className="profile-card">
        <TokenList kind={kind} />
      </IconCard>
      {kind === 'clinic' ? <TeamTokensCard /> : null}
    </div>
  );
}
