import { LinkCards } from '../../components/link-cards';
import { SettingsPageFrame, SettingsSection } from '../../components/settings-page-frame';
import '../../lib/zod-setup';
import type { Currency } from '@odontia/shared/enums';
import { currencyIsoCodes } from '@odontia/shared/enums';
import {
  type Account,
  type AccountMovement,
  type Plan,
  updateAccountBillingSchema,
} from '@odontia/shared/schemas/account';
import { RefreshCw, Save, Settings, Users } from 'lucide-react';
import { type ComponentProps, type ReactNode, useId, useMemo, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FieldGrid } from '../../components/bound-fields';
import { BusyIcon } from '../../components/busy-icon';
import { CaptionedTable } from '../../components/captioned-table';
import { FormAlert } from '../../components/form-feedback';
import { FormField } from '../../components/form-field';
import { IconTextButton } from '../../components/icon-button';
import { PaginationFooter } from '../../components/pagination-footer';
import { PdfButton } from '../../components/pdf-button';
import { SwitchField } from '../../components/switch-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useVersionedSubmit } from '../../lib/use-versioned-submit';
import { useZodForm } from '../../lib/use-zod-form';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { movementPdf, movementsPageSize, useAccount, useMovements, useRenew, useSaveBilling } from './api';

/*
 * /account (issue 19, spec §2 "My account"): the clinic as Odontia's customer — its commercial
 * and billing data, the plan with its limits and what the clinic uses of them, the contract's
 * period and due date, renewing (with a confirmation), the users and settings, and the movements
 * between the clinic and Odontia, each printable. Administrators only (account.manage).
 */

/** The account's sections share a row's height; the title's row always holds their actions. */
function Section({ actions = null, ...props }: Omit<ComponentProps<typeof SettingsSection>, 'className'>) {
  return <SettingsSection {...props} actions={actions} className="h-100" />;
}

function useMoney() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(
    () => (amount: string, currency: Currency) =>
      new Intl.NumberFormat(language, { style: 'currency', currency: currencyIsoCodes[currency] }).format(
        amount as unknown as number,
      ),
    [language],
  );
}

const stateBadge: Record<Account['contract']['state'], string> = {
  active: 'text-bg-success',
  grace: 'text-bg-warning',
  read_only: 'text-bg-danger',
};

function Definition({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <div className="col-sm-6">
      <dt className="small text-body-secondary fw-normal">{term}</dt>
      <dd className="mb-0 fw-semibold" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function RenewDialog({ account, onDone }: { account: Account; onDone: () => void }) {
  const { t } = useTranslation('account');
  const titleId = useId();
  const renew = useRenew();
  const money = useMoney();
  // One key per intended renewal: a double click or a retry answers the same order.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const selectId = useId();
  const [planId, setPlanId] = useState(account.plan?.id ?? account.plans[0]?.id ?? '');
  const plan = account.plans.find((candidate) => candidate.id === planId) ?? (account.plans[0] as Plan);
  const choose = (id: string) => {
    setPlanId(id);
    // Another plan is another intended renewal.
    setIdempotencyKey(crypto.randomUUID());
  };
  const confirm = async () => {
    try {
      const answer = await renew.mutateAsync({ body: { plan: plan.id }, idempotencyKey });
      toastSuccess(answer.code);
      onDone();
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <Modal show onHide={onDone} centered aria-labelledby={titleId} restoreFocus>
      <Modal.Header closeButton closeLabel={t('actions.close')}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t('renew.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="d-flex flex-column gap-2">
        {account.plans.length > 1 ? (
          <FormField id={selectId} label={t('renew.plan')} className="">
            <select
              id={selectId}
              className="form-select"
              value={plan.id}
              onChange={(event) => choose(event.target.value)}
              data-testid="renew-plan"
            >
              {account.plans.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </select>
          </FormField>
        ) : null}
        <p className="mb-0">
          {t('renew.text', {
            plan: plan.name,
            amount: money(plan.price, plan.currency),
            count: plan.periodMonths,
          })}
        </p>
        <p className="mb-0 small text-body-secondary">
          {account.contract.state === 'read_only' ? t('renew.fromToday') : t('renew.fromDueDate')} {t('renew.manual')}
        </p>
        <TransferDetails details={account.contract.transferDetails} />
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-outline-secondary" onClick={onDone} disabled={renew.isPending}>
          {t('actions.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void confirm()}
          disabled={renew.isPending}
          data-testid="renew-confirm"
        >
          <BusyIcon busy={renew.isPending} icon={RefreshCw} />
          {t('renew.confirm')}
        </button>
      </Modal.Footer>
    </Modal>
  );
}

/** Where the clinic transfers a renewal (issue 35): never ask for a transfer without saying where. */
function TransferDetails({ details }: { details: string | null }) {
  const { t } = useTranslation('account');
  if (!details) return <p className="mb-0 small">{t('renew.askDetails')}</p>;
  return (
    <div className="small" data-testid="transfer-details">
      <p className="mb-1 fw-semibold">{t('renew.transferTo')}</p>
      <p className="mb-0 account-transfer-details">{details}</p>
    </div>
  );
}

function LimitText({ used, limit, unit }: { used: number; limit: number | null; unit: string }) {
  const { t } = useTranslation('account');
  return <>{limit === null ? t('plan.usedNoLimit', { used, unit }) : t('plan.usedOf', { used, limit, unit })}</>;
}

function PlanCard({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const day = useCalendarDateFormat();
  const money = useMoney();
  const [renewing, setRenewing] = useState(false);
  const { plan, contract, usage } = account;
  const pending = contract.pendingRenewal;
  return (
    <Section
      title={t('sections.plan')}
      testId="account-plan"
      actions={
        account.plans.length > 0 && !pending ? (
          <IconTextButton
            icon={RefreshCw}
            className="btn btn-primary"
            onClick={() => setRenewing(true)}
            testId="account-renew"
          >
            {t('renew.button')}
          </IconTextButton>
        ) : null
      }
    >
      {account.selfHosted ? (
        <p className="mb-0" data-testid="account-self-hosted">
          {t('plan.selfHosted')}
        </p>
      ) : (
        <>
          <dl className="row g-3 mb-0">
            <Definition term={t('plan.name')} testId="account-plan-name">
              {plan ? plan.name : account.planId}
            </Definition>
            <Definition term={t('plan.price')}>
              {plan ? t('plan.pricePer', { amount: money(plan.price, plan.currency), count: plan.periodMonths }) : '—'}
            </Definition>
            <Definition term={t('plan.professionals')} testId="account-usage-professionals">
              <LimitText used={usage.professionals} limit={plan?.limits.professionals ?? null} unit="" />
            </Definition>
            <Definition term={t('plan.storage')} testId="account-usage-storage">
              <LimitText used={usage.storageMb} limit={plan?.limits.storageMb ?? null} unit=" MB" />
            </Definition>
          </dl>
          <hr className="my-0" />
          <dl className="row g-3 mb-0">
            <Definition term={t('contract.state')}>
              <span className={`badge ${stateBadge[contract.state]}`} data-testid="account-state">
                {t(`states.${contract.state}`)}
              </span>
            </Definition>
            <Definition term={t('contract.period')} testId="account-period">
              {contract.startsAt ? day(contract.startsAt.slice(0, 10)) : '—'} –{' '}
              {contract.dueDate ? day(contract.dueDate) : '—'}
            </Definition>
            <Definition term={t('contract.dueDate')} testId="account-due-date">
              {contract.dueDate ? day(contract.dueDate) : t('contract.noDueDate')}
            </Definition>
            <Definition term={t('contract.grace')}>{t('contract.graceDays', { count: contract.graceDays })}</Definition>
          </dl>
          {pending ? (
            <FormAlert variant="info" testId="account-pending-renewal">
              {t('renew.pending', {
                reference: pending.reference,
                amount: money(pending.amount, pending.currency),
              })}
              <div className="mt-2">
                <TransferDetails details={contract.transferDetails} />
              </div>
            </FormAlert>
          ) : null}
          {!plan ? <p className="small text-body-secondary mb-0">{t('plan.notConfigured')}</p> : null}
        </>
      )}
      {renewing ? <RenewDialog account={account} onDone={() => setRenewing(false)} /> : null}
    </Section>
  );
}

function valuesOf(account: Account) {
  const b = account.billing;
  return {
    clinicName: account.commercial.clinicName,
    contact: account.commercial.contact,
    useFiscalData: b.useFiscalData,
    billingLegalName: b.billingLegalName ?? '',
    billingTaxId: b.billingTaxId ?? '',
    billingAddress: b.billingAddress ?? '',
    billingCity: b.billingCity ?? '',
    billingPostalCode: b.billingPostalCode ?? '',
    billingCountry: b.billingCountry ?? '',
    billingEmail: b.billingEmail ?? '',
    billingContact: b.billingContact ?? '',
    version: account.version,
  };
}

function BillingForm({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const id = useId();
  const save = useSaveBilling();
  const form = useZodForm(updateAccountBillingSchema, valuesOf(account));
  const useFiscal = form.watch('useFiscalData');
  const fiscal = account.fiscal;
  const readOnly = account.contract.state === 'read_only';

  const { saveVersioned, conflict } = useVersionedSubmit(form, save.mutateAsync, valuesOf, 'account_billing_updated');
  const onSubmit = form.submit(saveVersioned);

  return (
    <Section title={t('sections.billing')} intro={t('intros.billing')} testId="account-billing">
      <form ref={form.formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="billing-form">
        <fieldset disabled={save.isPending || readOnly} className="d-flex flex-column gap-3">
          {readOnly ? (
            <FormAlert variant="warning" testId="billing-read-only">
              {t('billing.readOnly')}
            </FormAlert>
          ) : null}
          {conflict ? (
            <FormAlert variant="warning" testId="billing-conflict">
              {t('conflict')}
            </FormAlert>
          ) : null}
          <FieldGrid
            form={form}
            fields={[
              {
                name: 'clinicName',
                label: t('fields.clinicName'),
                required: true,
                className: 'col-md-6',
                testId: 'billing-clinicName',
              },
              {
                name: 'contact',
                label: t('fields.contact'),
                required: true,
                className: 'col-md-6',
                testId: 'billing-contact',
              },
              {
                name: 'billingEmail',
                label: t('fields.billingEmail'),
                hint: t('hints.billingEmail'),
                type: 'email',
                className: 'col-md-6',
                testId: 'billing-email',
              },
              {
                name: 'billingContact',
                label: t('fields.billingContact'),
                className: 'col-md-6',
                testId: 'billing-person',
              },
            ]}
          />
          <SwitchField
            id={`${id}-fiscal`}
            label={t('fields.useFiscalData')}
            input={form.register('useFiscalData')}
            testId="billing-useFiscalData"
          />
          {useFiscal ? (
            <div className="small" data-testid="billing-fiscal">
              {fiscal.legalName || fiscal.taxId ? (
                <p className="mb-1">
                  <span className="fw-semibold">{fiscal.legalName ?? account.commercial.clinicName}</span>
                  {fiscal.taxId ? ` · ${fiscal.taxId}` : ''}
                  {fiscal.address ? ` · ${[fiscal.address, fiscal.city].filter(Boolean).join(', ')}` : ''}
                </p>
              ) : (
                <p className="mb-1 text-body-secondary">{t('billing.noFiscalData')}</p>
              )}
              <Link to="/settings/fiscal">{t('billing.editFiscal')}</Link>
            </div>
          ) : (
            <FieldGrid
              form={form}
              fields={[
                {
                  name: 'billingLegalName',
                  label: t('fields.billingLegalName'),
                  className: 'col-md-8',
                  testId: 'billing-legalName',
                },
                {
                  name: 'billingTaxId',
                  label: t('fields.billingTaxId'),
                  className: 'col-md-4',
                  testId: 'billing-taxId',
                },
                {
                  name: 'billingAddress',
                  label: t('fields.billingAddress'),
                  className: 'col-md-8',
                  testId: 'billing-address',
                },
                { name: 'billingCity', label: t('fields.billingCity'), className: 'col-md-4', testId: 'billing-city' },
                {
                  name: 'billingPostalCode',
                  label: t('fields.billingPostalCode'),
                  className: 'col-6 col-md-4',
                  testId: 'billing-postalCode',
                },
                {
                  name: 'billingCountry',
                  label: t('fields.billingCountry'),
                  hint: t('hints.billingCountry'),
                  maxLength: 2,
                  className: 'col-6 col-md-4',
                  testId: 'billing-country',
                },
              ]}
            />
          )}
          <div>
            <button type="submit" className="btn btn-primary" data-testid="billing-save">
              <BusyIcon busy={save.isPending} icon={Save} />
              {t('actions.save')}
            </button>
          </div>
        </fieldset>
      </form>
    </Section>
  );
}

function MovementsSection() {
  const { t } = useTranslation('account');
  const day = useCalendarDateFormat();
  const money = useMoney();
  const [page, setPage] = useState(1);
  const movements = useMovements(page);
  const periodOf = (row: AccountMovement) =>
    row.periodStart && row.periodEnd ? `${day(row.periodStart)} – ${day(row.periodEnd)}` : '—';
  return (
    <Section title={t('sections.movements')} intro={t('intros.movements')} testId="account-movements">
      {movements.isPending ? (
        <p className="text-body-secondary mb-0">{t('loading')}</p>
      ) : movements.isError ? (
        <FormAlert>{t('loadError')}</FormAlert>
      ) : movements.data.total === 0 ? (
        <p className="text-body-secondary mb-0" data-testid="movements-empty">
          {t('movements.empty')}
        </p>
      ) : (
        <>
          <CaptionedTable
            wrapperClassName="table-responsive position-relative"
            className="table table-sm align-middle mb-0"
            caption={t('sections.movements')}
            head={[
              { label: t('movements.date') },
              { label: t('movements.kind') },
              { label: t('movements.reference') },
              { label: t('movements.period') },
              { label: t('movements.amount'), className: 'text-end' },
              { label: t('movements.status') },
              { label: <span className="visually-hidden">{t('movements.pdf')}</span> },
            ]}
          >
            <tbody>
              {movements.data.data.map((row) => (
                <tr key={row.id} data-testid="movement-row" data-kind={row.kind} data-status={row.status}>
                  <td className="text-nowrap">{day(row.date)}</td>
                  <td>{t(`kinds.${row.kind}`)}</td>
                  <td className="text-nowrap font-monospace small">{row.reference}</td>
                  <td className="text-nowrap">{periodOf(row)}</td>
                  <td className="text-end text-nowrap">{money(row.amount, row.currency)}</td>
                  <td>{t(`statuses.${row.status}`)}</td>
                  <td className="text-end">
                    <PdfButton
                      load={() => movementPdf(row.id)}
                      fallbackName={`${row.reference}.pdf`}
                      label={t('movements.pdf')}
                      icon="download"
                      small
                      testId="movement-pdf"
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </CaptionedTable>
          <PaginationFooter
            page={page}
            pageSize={movementsPageSize}
            total={movements.data.total}
            onPage={setPage}
            label={t('movements.pages')}
          />
        </>
      )}
    </Section>
  );
}

function Links() {
  const { t } = useTranslation('account');
  const links = [
    { to: '/account/users', icon: Users, key: 'users' },
    { to: '/settings', icon: Settings, key: 'settings' },
  ] as const;
  return <LinkCards label={t('sections.more')} testId="account-links" links={links} t={t} />;
}

export function AccountPage() {
  const { t } = useTranslation('account');
  const account = useAccount();
  return (
    <SettingsPageFrame
      title={t('common:pages.account')}
      intro={t('intro')}
      testId="account-page"
      query={account}
      loadError={t('loadError')}
      loaded={({ data }) => (
        <div className="row g-3">
          <div className="col-xl-6">
            <PlanCard account={data} />
          </div>
          <div className="col-xl-6">
            <BillingForm key={data.version} account={data} />
          </div>
        </div>
      )}
    >
      <MovementsSection />
      <Links />
    </SettingsPageFrame>
  );
}
