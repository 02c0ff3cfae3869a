import type { Billable } from '@odontia/shared/schemas/sales';
import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useOdontogramChart } from '../odontogram/api';
import { useBillables } from './api';

/**
 * "Agregar desde el odontograma" (a budget of a patient): the patient's teeth with findings on the
 * odontogram today; pick a tooth and a price-list treatment and the budget gets the line.
 */
export function OdontogramLines({
  patientId,
  onAdd,
}: {
  patientId: string;
  onAdd: (line: { tooth: string; billable: Billable }) => void;
}) {
  const { t } = useTranslation(['sales', 'odontogram']);
  const id = useId();
  const chart = useOdontogramChart(patientId, null);
  const [tooth, setTooth] = useState('');
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [treatment, setTreatment] = useState<Billable | null>(null);
  const debounced = useDebouncedValue(text, 250);
  const search = useBillables(debounced.trim(), open);
  const teeth = (chart.data?.teeth ?? [])
    .map((state) => {
      const statuses = new Set(
        [state.piece, ...Object.values(state.zones)]
          .filter((mark) => mark && mark.status !== 'healthy')
          .map((mark) => mark?.status as string),
      );
      return { tooth: String(state.tooth), statuses: [...statuses] };
    })
    .filter((state) => state.statuses.length > 0)
    .sort((a, b) => Number(a.tooth) - Number(b.tooth));

  const add = () => {
    if (!tooth || !treatment) return;
    onAdd({ tooth, billable: treatment });
    setTreatment(null);
    setText('');
  };

  return (
    <fieldset className="border rounded p-2 row g-2 mx-0 align-items-end" data-testid="odontogram-lines">
      <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">{t('sales:odontogram.title')}</legend>
      {chart.data && teeth.length === 0 ? (
        <p className="text-body-secondary small mb-0">{t('sales:odontogram.none')}</p>
      ) : (
        <>
          <div className="col-12 col-md-4">
            <label className="form-label small mb-1" htmlFor={`${id}-tooth`}>
              {t('sales:odontogram.tooth')}
            </label>
            <select
              id={`${id}-tooth`}
              className="form-select form-select-sm"
              value={tooth}
              onChange={(event) => setTooth(event.target.value)}
              data-testid="odontogram-tooth"
            >
              <option value="">{t('sales:odontogram.pickTooth')}</option>
              {teeth.map((state) => (
                <option key={state.tooth} value={state.tooth}>
                  {state.tooth} — {state.statuses.map((status) => t(`odontogram:statuses.${status}`)).join(', ')}
                </option>
              ))}
            </select>
          </div>
          <div className="col-12 col-md-6">
            <label className="form-label small mb-1" htmlFor={`${id}-treatment`}>
              {t('sales:odontogram.treatment')}
            </label>
            <Combobox<Billable>
              id={`${id}-treatment`}
              value={text}
              onInputChange={(value) => {
                setText(value);
                setTreatment(null);
              }}
              open={open}
              onOpenChange={setOpen}
              items={(search.data ?? []).filter((billable) => billable.kind === 'treatment')}
              itemKey={(billable) => billable.id}
              itemName={(billable) => billable.name}
              renderItem={(billable) => (
                <ComboboxOptionText
                  name={billable.name}
                  detail={[billable.code, billable.group].filter(Boolean).join(' · ')}
                />
              )}
              onPick={(billable) => {
                setTreatment(billable);
                setText(billable.name);
              }}
              listLabel={t('sales:form.billables')}
              pending={search.isPending}
              busy={search.isFetching}
              pendingText={t('sales:form.searching')}
              emptyText={t('sales:odontogram.noTreatment')}
              minLength={0}
              placeholder={t('sales:odontogram.treatmentPlaceholder')}
              inputTestId="odontogram-treatment"
              optionTestId="odontogram-treatment-option"
            />
          </div>
          <div className="col-12 col-md-2">
            <button
              type="button"
              className="btn btn-sm btn-outline-primary w-100"
              onClick={add}
              disabled={!tooth || !treatment}
              data-testid="odontogram-add"
            >
              <Plus size={14} aria-hidden="true" className="me-1" />
              {t('sales:odontogram.add')}
            </button>
          </div>
        </>
      )}
    </fieldset>
  );
}
