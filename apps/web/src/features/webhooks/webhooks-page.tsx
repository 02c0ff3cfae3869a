import { type WebhookEventType, webhookEventTypes } from '@odontia/shared/schemas/webhooks';
import { ArrowLeft, Check, Copy, KeyRound, ListChecks, Pencil, Plus, RotateCw, Send, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete } from '../../components/confirm-delete';
import { PageTitle } from '../../components/page-title';
import { PaginationFooter } from '../../components/pagination-footer';
import { Spinner } from '../../components/spinner';
import { apiErrorText, toastApiError, toastSuccess } from '../../lib/api-toast';
import { useInstantFormat } from '../../session/clinic-time';
import {
  type AttemptRow,
  useCreateWebhook,
  useRemoveWebhook,
  useResendWebhook,
  useRotateWebhookSecret,
  useUpdateWebhook,
  useWebhookAttempts,
  useWebhooks,
  type WebhookRow,
} from './api';

/**
 * `/settings/webhooks` (issue 42; settings.manage): the clinic's subscriptions of integrators'
 * URLs to its events, the signing secret shown once (at creation and on "rotate") with a copy
 * button, and each subscription's delivery log with "Reenviar".
 */
export function WebhooksPage() {
  const { t } = useTranslation(['webhooks', 'common']);
  const [page, setPage] = useState(1);
  const list = useWebhooks(page);
  const [editing, setEditing] = useState<WebhookRow | 'new' | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [logOf, setLogOf] = useState<WebhookRow | null>(null);
  const [removing, setRemoving] = useState<WebhookRow | null>(null);
  const remove = useRemoveWebhook();
  const rotate = useRotateWebhookSecret();

  return (
    <div className="d-flex flex-column gap-3" data-testid="webhooks-page">
      <PageTitle title={t('common:pages.webhookSettings')} />
      <Link to="/settings" className="d-inline-flex align-items-center gap-1 small">
        <ArrowLeft size={14} aria-hidden="true" />
        {t('back')}
      </Link>
      <div className="d-flex flex-wrap gap-2 align-items-start justify-content-between">
        <div>
          <h1 className="h3 mb-1">{t('common:pages.webhookSettings')}</h1>
          <p className="text-body-secondary mb-0">{t('intro')}</p>
        </div>
        <button
          type="button"
          className="btn btn-primary d-inline-flex align-items-center gap-1"
          onClick={() => setEditing('new')}
          data-testid="webhook-new"
        >
          <Plus size={16} aria-hidden="true" /> {t('new')}
        </button>
      </div>

      {list.isPending ? (
        <div className="text-center py-4">
          <Spinner size={6} />
        </div>
      ) : list.isError ? (
        <div className="alert alert-danger" role="alert">
          {apiErrorText(list.error)}
        </div>
      ) : list.data.data.length === 0 ? (
        <p className="text-body-secondary" data-testid="webhooks-empty">
          {t('empty')}
        </p>
      ) : (
        <div className="card">
          <ul className="list-group list-group-flush" data-testid="webhooks-list">
            {list.data.data.map((row) => (
              <li key={row.id} className="list-group-item" data-testid="webhook-row">
                <div className="d-flex flex-wrap gap-2 justify-content-between align-items-start">
                  <div className="text-break" style={{ minWidth: 0 }}>
                    <div className="fw-semibold font-monospace small">{row.url}</div>
                    {row.description ? <div className="small">{row.description}</div> : null}
                    <div className="d-flex flex-wrap gap-1 mt-1">
                      <span
                        className={`badge ${row.active ? 'text-bg-success' : 'text-bg-secondary'}`}
                        data-testid="webhook-state"
                      >
                        {row.active ? t('active') : t('paused')}
                      </span>
                      {row.events.map((event) => (
                        <span key={event} className="badge bg-body-tertiary text-body border">
                          {t(`events.${event}`)}
                        </span>
                      ))}
                    </div>
                    <div className="small text-body-secondary mt-1">{t('secretHint', { hint: row.secretHint })}</div>
                  </div>
                  <div className="d-flex flex-wrap gap-1">
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-primary d-inline-flex align-items-center gap-1"
                      onClick={() => setLogOf(row)}
                      data-testid="webhook-log"
                    >
                      <ListChecks size={14} aria-hidden="true" /> {t('log')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
                      onClick={() => setEditing(row)}
                      data-testid="webhook-edit"
                    >
                      <Pencil size={14} aria-hidden="true" /> {t('edit')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary"
                      disabled={rotate.isPending}
                      onClick={() =>
                        rotate.mutate(row.id, {
                          onSuccess: (answer) => {
                            toastSuccess(answer.code);
                            setSecret({ url: answer.data.url, secret: answer.secret });
                          },
                          onError: toastApiError,
                        })
                      }
                      data-testid="webhook-rotate"
                    >
                      <BusyIcon busy={rotate.isPending && rotate.variables === row.id} icon={KeyRound} size={14} />{' '}
                      {t('rotate')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger"
                      onClick={() => setRemoving(row)}
                      aria-label={t('removeOne', { url: row.url })}
                      data-testid="webhook-remove"
                    >
                      <Trash2 size={14} aria-hidden="true" />
                    </button>
                  </div>
                </div>
              </li>
            ))}
          </ul>
          <div className="card-footer">
            <PaginationFooter
              page={list.data.page}
              pageSize={list.data.pageSize}
              total={list.data.total}
              onPage={setPage}
              label={t('pages')}
            />
          </div>
        </div>
      )}

      {logOf ? <DeliveryLog key={logOf.id} subscription={logOf} onClose={() => setLogOf(null)} /> : null}

      {editing ? (
        <WebhookForm
          subscription={editing === 'new' ? null : editing}
          onDone={(created) => {
            setEditing(null);
            if (created) setSecret(created);
          }}
        />
      ) : null}
      {secret ? <SecretDialog {...secret} onClose={() => setSecret(null)} /> : null}
      <ConfirmDelete
        show={removing !== null}
        title={t('removeTitle')}
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: (answer) => {
              toastSuccess(answer.code);
              if (logOf?.id === removing.id) setLogOf(null);
              setRemoving(null);
            },
            onError: toastApiError,
          })
        }
        testId="webhook-remove-confirm"
      >
        {t('removeText', { url: removing?.url ?? '' })}
      </ConfirmDelete>
    </div>
  );
}

function WebhookForm({
  subscription,
  onDone,
}: {
  subscription: WebhookRow | null;
  onDone: (created?: { url: string; secret: string }) => void;
}) {
  const { t } = useTranslation('webhooks');
  const id = useId();
  const [url, setUrl] = useState(subscription?.url ?? 'https://');
  const [description, setDescription] = useState(subscription?.description ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(subscription?.events ?? ['appointment.booked']);
  const [active, setActive] = useState(subscription?.active ?? true);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const pending = create.isPending || update.isPending;
  const toggle = (event: WebhookEventType) =>
    setEvents((current) => (current.includes(event) ? current.filter((one) => one !== event) : [...current, event]));
  const failed = (error: unknown) => setProblem(apiErrorText(error));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const body = { url, description, events, active };
    if (subscription) {
      update.mutate(
        { id: subscription.id, body: { ...body, version: subscription.version } },
        {
          onSuccess: (answer) => {
            toastSuccess(answer.code ?? 'webhook_updated');
            onDone();
          },
          onError: failed,
        },
      );
    } else {
      create.mutate(body, {
        onSuccess: (answer) => {
          toastSuccess(answer.code);
          onDone({ url: answer.data.url, secret: answer.secret });
        },
        onError: failed,
      });
    }
  };
  return (
    <Modal show onHide={() => onDone()} aria-labelledby={`${id}-title`} data-testid="webhook-form">
      <form onSubmit={submit} noValidate>
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {subscription ? t('editTitle') : t('newTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="d-flex flex-column gap-3">
          {problem ? (
            <div className="alert alert-danger mb-0" role="alert" data-testid="webhook-form-error">
              {problem}
            </div>
          ) : null}
          <div>
            <label htmlFor={`${id}-url`} className="form-label">
              {t('url')}
            </label>
            <input
              id={`${id}-url`}
              className="form-control font-monospace"
              type="url"
              inputMode="url"
              required
              maxLength={2000}
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              aria-describedby={`${id}-url-hint`}
              data-testid="webhook-url"
            />
            <div id={`${id}-url-hint`} className="form-text">
              {t('urlHint')}
            </div>
          </div>
          <div>
            <label htmlFor={`${id}-description`} className="form-label">
              {t('description')}
            </label>
            <input
              id={`${id}-description`}
              className="form-control"
              maxLength={500}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              data-testid="webhook-description"
            />
          </div>
          <fieldset>
            <legend className="form-label fs-6">{t('eventsLabel')}</legend>
            {webhookEventTypes.map((event) => (
              <div key={event} className="form-check">
                <input
                  id={`${id}-${event}`}
                  className="form-check-input"
                  type="checkbox"
                  checked={events.includes(event)}
                  onChange={() => toggle(event)}
                  data-testid={`webhook-event-${event}`}
                />
                <label htmlFor={`${id}-${event}`} className="form-check-label">
                  {t(`events.${event}`)} <code className="small">{event}</code>
                </label>
              </div>
            ))}
          </fieldset>
          <div className="form-check form-switch">
            <input
              id={`${id}-active`}
              className="form-check-input"
              type="checkbox"
              role="switch"
              aria-checked={active}
              checked={active}
              onChange={(event) => setActive(event.target.checked)}
              data-testid="webhook-active"
            />
            <label htmlFor={`${id}-active`} className="form-check-label">
              {t('activeLabel')}
            </label>
          </div>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={() => onDone()}>
            {t('cancel')}
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={pending || events.length === 0}
            data-testid="webhook-save"
          >
            <BusyIcon busy={pending} /> {t('save')}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}

/** The secret, this once: a read-only field with a copy button. */
function SecretDialog({ url, secret, onClose }: { url: string; secret: string; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
    } catch {
      // No clipboard (an insecure origin): the text is selected for the person to copy.
      input.current?.select();
    }
    setCopied(true);
  };
  return (
    <Modal show onHide={onClose} aria-labelledby={`${id}-title`} data-testid="webhook-secret-dialog">
      <Modal.Header closeButton closeLabel={t('close')}>
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          {t('secretTitle')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>{t('secretOnce', { url })}</p>
        <label htmlFor={`${id}-secret`} className="form-label">
          {t('secretLabel')}
        </label>
        <div className="input-group">
          <input
            ref={input}
            id={`${id}-secret`}
            className="form-control font-monospace small"
            value={secret}
            readOnly
            onFocus={(event) => event.target.select()}
            data-testid="webhook-secret"
          />
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => void copy()}
            aria-label={t('copySecret')}
            title={t('copySecret')}
            data-testid="webhook-secret-copy"
          >
            {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
          </button>
        </div>
        <div className="form-text" aria-live="polite">
          {copied ? t('copied') : t('secretHelp')}
        </div>
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="webhook-secret-done">
          {t('secretDone')}
        </button>
      </Modal.Footer>
    </Modal>
  );
}

function statusBadge(row: AttemptRow): { className: string; key: string } {
  if (row.ok) return { className: 'text-bg-success', key: 'delivered' };
  if (row.deliveryState === 'pending') return { className: 'text-bg-warning', key: 'retrying' };
  return { className: 'text-bg-danger', key: 'failed' };
}

function DeliveryLog({ subscription, onClose }: { subscription: WebhookRow; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  const [page, setPage] = useState(1);
  const attempts = useWebhookAttempts(subscription.id, page);
  const resend = useResendWebhook();
  const format = useInstantFormat('dateTime');
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId} data-testid="webhook-log-panel">
      <div className="card-header d-flex flex-wrap gap-2 justify-content-between align-items-center">
        <h2 id={headingId} className="h6 mb-0 text-break">
          {t('logTitle', { url: subscription.url })}
        </h2>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onClose}>
          {t('close')}
        </button>
      </div>
      {attempts.isPending ? (
        <div className="text-center py-3">
          <Spinner size={4} />
        </div>
      ) : attempts.isError ? (
        <div className="alert alert-danger m-3" role="alert">
          {apiErrorText(attempts.error)}
        </div>
      ) : attempts.data.data.length === 0 ? (
        <p className="text-body-secondary m-3" data-testid="webhook-log-empty">
          {t('logEmpty')}
        </p>
      ) : (
        <>
          <ul className="list-group list-group-flush" data-testid="webhook-attempts">
            {attempts.data.data.map((row) => {
              const badge = statusBadge(row);
              return (
                <li key={row.id} className="list-group-item" data-testid="webhook-attempt">
                  <div className="d-flex flex-wrap gap-2 justify-content-between align-items-start">
                    <div style={{ minWidth: 0 }} className="text-break">
                      <div className="d-flex flex-wrap gap-1 align-items-center">
                        <span className={`badge ${badge.className}`} data-testid="webhook-attempt-status">
                          {t(`status.${badge.key}`)}
                        </span>
                        <span className="fw-semibold">{t(`events.${row.eventType}`)}</span>
                        {row.resent ? <span className="badge text-bg-info">{t('resent')}</span> : null}
                      </div>
                      <div className="small text-body-secondary">
                        {format(row.attemptedAt)} · {row.statusCode ?? t('noStatus')} ·{' '}
                        {t('duration', { ms: row.durationMs })}
                      </div>
                      <div className="small font-monospace text-body-secondary">{row.eventId}</div>
                      {row.error ? <div className="small text-danger-emphasis">{row.error}</div> : null}
                      {row.responseExcerpt ? (
                        <div className="small font-monospace text-truncate" title={row.responseExcerpt}>
                          {row.responseExcerpt}
                        </div>
                      ) : null}
                    </div>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-primary"
                      disabled={resend.isPending}
                      onClick={() =>
                        resend.mutate(
                          { id: subscription.id, deliveryId: row.deliveryId },
                          { onSuccess: (answer) => toastSuccess(answer.code), onError: toastApiError },
                        )
                      }
                      data-testid="webhook-resend"
                    >
                      <BusyIcon
                        busy={resend.isPending && resend.variables?.deliveryId === row.deliveryId}
                        icon={row.ok ? Send : RotateCw}
                        size={14}
                      />{' '}
                      {t('resend')}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
          <div className="card-footer">
            <PaginationFooter
              page={attempts.data.page}
              pageSize={attempts.data.pageSize}
              total={attempts.data.total}
              onPage={setPage}
              label={t('logPages')}
            />
          </div>
        </>
      )}
    </section>
  );
}
