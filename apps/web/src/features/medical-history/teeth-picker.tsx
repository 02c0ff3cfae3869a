import { useTranslation } from 'react-i18next';

/** The FDI chart as the clinician reads it: the patient's right on the left, upper arch first. */
const permanentRows = [
  [18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28],
  [48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38],
];
const primaryRows = [
  [55, 54, 53, 52, 51, 61, 62, 63, 64, 65],
  [85, 84, 83, 82, 81, 71, 72, 73, 74, 75],
];

/** Toggle buttons for the teeth concerned (FDI numbers), permanent and primary. */
export function TeethPicker({
  value,
  onChange,
  id,
  disabled = false,
}: {
  value: number[];
  onChange: (teeth: number[]) => void;
  id: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('clinical');
  const selected = new Set(value);
  const toggle = (tooth: number) => {
    const next = new Set(selected);
    if (next.has(tooth)) next.delete(tooth);
    else next.add(tooth);
    onChange([...next].sort((a, b) => a - b));
  };
  const button = (tooth: number) => (
    <button
      key={tooth}
      type="button"
      className={`tooth-button${selected.has(tooth) ? ' active' : ''}`}
      aria-pressed={selected.has(tooth)}
      aria-label={t('diagnosis.tooth', { tooth })}
      onClick={() => toggle(tooth)}
      disabled={disabled}
      data-tooth={tooth}
    >
      {tooth}
    </button>
  );
  /** One arch: the patient's right half, the midline, the left half (stacked on phones). */
  const row = (teeth: number[], key: string) => (
    <div className="teeth-row" key={key}>
      <div className="teeth-half">{teeth.slice(0, teeth.length / 2).map(button)}</div>
      <div className="teeth-half">{teeth.slice(teeth.length / 2).map(button)}</div>
    </div>
  );
  return (
    <div className="teeth-picker" id={id} data-testid="teeth-picker">
      <fieldset className="teeth-set">
        <legend className="teeth-caption small text-body-secondary mb-0">{t('diagnosis.permanent')}</legend>
        {permanentRows.map((teeth, index) => row(teeth, `p${index}`))}
      </fieldset>
      <fieldset className="teeth-set">
        <legend className="teeth-caption small text-body-secondary mb-0">{t('diagnosis.primary')}</legend>
        {primaryRows.map((teeth, index) => row(teeth, `d${index}`))}
      </fieldset>
      <div className="small text-body-secondary" aria-live="polite" data-testid="teeth-selected">
        {value.length ? t('diagnosis.selectedTeeth', { teeth: value.join(', ') }) : t('diagnosis.noTeeth')}
        {value.length ? (
          <button type="button" className="btn btn-link btn-sm py-0" onClick={() => onChange([])} disabled={disabled}>
            {t('diagnosis.clearTeeth')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
