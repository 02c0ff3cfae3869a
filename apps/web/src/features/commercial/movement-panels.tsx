import type { MoneyMovement, MovementKind } from './money-movement';
import '../../lib/zod-setup';
import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { Wand2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../components/date-input';
import { CancelConfirm } from '../../components/dialog-frame';
import { IconTextButton } from '../../components/icon-button';
import { useClinicToday } from '../../session/clinic-time';
import { AllocationTable } from './allocation-table';
import { fromCents, toCents, useCurrencyFormat } from './money-format';
import { proposeAllocations } from './movement-draft';

export type MovementTexts = Pick<MovementKind<MoneyMovement>, 'namespaces' | 'testIdPrefix'>;

/** What a movement's view can do to it once recorded. */
export type MovementChange =
  | { kind: 'allocate'; body: { version: number; allocations: { documentId: string; amount: string }[] } }
  | { kind: 'paid'; body: { version: number; paidOn: string } }
  | { kind: 'reverse'; body: { version: number; reason: string } };

/** What every panel takes: the movement's texts, whether a change is under way, and its two ways out. */
interface PanelProps<Value> {
  kind: MovementTexts;
  busy: boolean;
  onCancel: () => void;
  onSave: (value: Value) => Promise<void>;
}

/** Each panel's confirm button: its text and its colour; its test id is `<prefix>-<panel>-save`. */
const confirmOf = {
  allocate: { label: 'view.saveAllocation', className: 'btn-primary' },
  paid: { label: 'view.markPaid', className: 'btn-success' },
  reverse: { label: 'view.confirmReverse', className: 'btn-danger' },
} as const;

/** A panel's words (its movement's namespaces) and the prefix of its test ids. */
function usePanelTexts(kind: MovementTexts) {
  const { t } = useTranslation(kind.namespaces);
  return { t, prefix: kind.testIdPrefix };
}

/** Cancel, and the panel's confirm button, enabled once the panel's input is `ready`. */
function PanelActions({
  panel: { kind, busy, onCancel },
  name,
  ready,
  onConfirm,
}: {
  panel: Omit<PanelProps<never>, 'onSave'>;
  name: keyof typeof confirmOf;
  ready: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation(kind.namespaces);
  return (
    <CancelConfirm
      cancelLabel={t('view.cancel')}
      onCancel={onCancel}
      confirm={{
        label: t(confirmOf[name].label),
        onClick: onConfirm,
        className: confirmOf[name].className,
        disabled: busy || !ready,
        busy,
        testId: `${kind.testIdPrefix}-${name}-save`,
      }}
    />
  );
}

export function AllocatePanel<M extends MoneyMovement>({
  movement,
  onSave,
  ...panel
}: PanelProps<{ version: number; allocations: { documentId: string; amount: string }[] }> & {
  kind: MovementKind<M>;
  movement: M;
}) {
  const { kind } = panel;
  const { t, prefix } = usePanelTexts(kind);
  const documents = kind.useOpenDocuments(movement);
  const money = useCurrencyFormat();
  const [allocations, setAllocations] = useState<Record<string, string>>({});
  const onAccount = toCents(movement.unallocatedAmount);
  const allocated = Object.values(allocations).reduce((total, value) => total + (toCents(value || '0') || 0), 0);
  const propose = () => setAllocations(proposeAllocations(documents ?? [], movement.currency, onAccount));
  const save = () =>
    onSave({
      version: movement.version,
      allocations: Object.entries(allocations)
        .filter(([, value]) => value.trim() && toCents(value) > 0)
        .map(([documentId, value]) => ({ documentId, amount: normalizeDecimal(value) ?? value.trim() })),
    });
  return (
    <section className="card border-primary" data-testid={`${prefix}-allocate`}>
      <div className="card-header d-flex justify-content-between align-items-center">
        <h2 className="h6 mb-0">{t('view.allocateRemainder')}</h2>
        <IconTextButton
          icon={Wand2}
          className="btn btn-outline-primary btn-sm"
          onClick={propose}
          testId={`${prefix}-allocate-propose`}
        >
          {t('form.propose')}
        </IconTextButton>
      </div>
      <div className="card-body">
        {documents && documents.length === 0 ? (
          <p className="text-body-secondary">{t('form.noOpenDocuments')}</p>
        ) : (
          <AllocationTable
            documents={documents ?? []}
            currency={movement.currency}
            allocations={allocations}
            onChange={(id, value) => setAllocations((current) => ({ ...current, [id]: value }))}
          />
        )}
        <p className="mt-2 mb-0 text-end">
          {t('form.remainder')}:{' '}
          <strong className={onAccount - allocated < 0 ? 'text-danger-emphasis' : undefined}>
            {money(fromCents(onAccount - allocated), movement.currency)}
          </strong>
        </p>
      </div>
      <div className="card-footer d-flex gap-2 justify-content-end">
        <PanelActions
          panel={panel}
          name="allocate"
          ready={allocated > 0 && allocated <= onAccount}
          onConfirm={() => void save()}
        />
      </div>
    </section>
  );
}

export function PaidPanel({ onSave, ...panel }: PanelProps<string>) {
  const { t, prefix } = usePanelTexts(panel.kind);
  const id = useId();
  const [paidOn, setPaidOn] = useState(useClinicToday());
  return (
    <section className="card border-success" data-testid={`${prefix}-paid`}>
      <div className="card-body d-flex flex-wrap gap-2 align-items-end">
        <div>
          <label className="form-label" htmlFor={`${id}-paidOn`}>
            {t('fields.paidOn')}
          </label>
          <DateInput
            id={`${id}-paidOn`}
            name="paidOn"
            className="form-control"
            value={paidOn}
            onChange={(event) => setPaidOn(event.target.value)}
          />
        </div>
        <PanelActions panel={panel} name="paid" ready={Boolean(paidOn)} onConfirm={() => void onSave(paidOn)} />
      </div>
    </section>
  );
}

export function ReversePanel({ onSave, ...panel }: PanelProps<string>) {
  const { t, prefix } = usePanelTexts(panel.kind);
  const id = useId();
  const [reason, setReason] = useState('');
  return (
    <section className="card border-danger" data-testid={`${prefix}-reverse`}>
      <div className="card-body">
        <p className="text-body-secondary">{t('view.reverseHint')}</p>
        <label className="form-label" htmlFor={`${id}-reason`}>
          {t('view.reason')}
        </label>
        <textarea
          id={`${id}-reason`}
          className="form-control"
          rows={2}
          maxLength={500}
          value={reason}
          data-testid={`${prefix}-reverse-reason`}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
      <div className="card-footer d-flex gap-2 justify-content-end">
        <PanelActions
          panel={panel}
          name="reverse"
          ready={Boolean(reason.trim())}
          onConfirm={() => void onSave(reason.trim())}
        />
      </div>
    </section>
  );
}
