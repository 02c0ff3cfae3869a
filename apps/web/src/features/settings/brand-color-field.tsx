import { brandPalette, defaultBrandColor, isHexColor } from '@odontia/shared/brand-color';
import { Eraser } from 'lucide-react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BoundField } from '../../components/bound-fields';
import { inputClass } from '../../components/form-field';
import { brandStyle } from '../../lib/brand-style';

/*
 * The clinic's brand colour (issue 37) in the settings page's portal section: a colour picker and
 * the hex text bound to the same field, a button to go back to the product's colour, and a preview
 * of the portal's band and buttons in the shades the portal will really use (brand-color.ts keeps
 * every pair at 4.5:1, so a light colour shows dark text and darker links).
 */

type ColorForm<T extends FieldValues> = Pick<
  UseFormReturn<T, unknown, never>,
  'register' | 'formState' | 'watch' | 'setValue'
>;

export function BrandColorField<T extends FieldValues>({ form, name }: { form: ColorForm<T>; name: Path<T> }) {
  const { t } = useTranslation('settings');
  const typed = String(form.watch(name) ?? '').trim();
  const color = isHexColor(typed) ? typed.toLowerCase() : null;
  const set = (value: string) =>
    form.setValue(name, value as PathValue<T, Path<T>>, { shouldDirty: true, shouldValidate: true });
  return (
    <div className="row g-3">
      <BoundField
        form={form}
        name={name}
        label={t('fields.brandColor')}
        hint={t('hints.brandColor')}
        className="col-md-6"
      >
        {(control) => (
          <div className="d-flex gap-2 align-items-start">
            <input
              type="color"
              className="form-control form-control-color flex-shrink-0"
              value={color ?? defaultBrandColor}
              onChange={(event) => set(event.target.value)}
              aria-label={t('brandColor.picker')}
              data-testid="settings-brandColor-picker"
            />
            <input
              autoComplete="off"
              spellCheck={false}
              placeholder={defaultBrandColor}
              maxLength={7}
              {...form.register(name)}
              {...control.props}
              className={`${inputClass(control.error)} font-monospace`}
              data-testid="settings-brandColor"
            />
            <button
              type="button"
              className="btn btn-outline-secondary flex-shrink-0"
              onClick={() => set('')}
              disabled={!typed}
              data-testid="settings-brandColor-clear"
            >
              <Eraser size={16} aria-hidden="true" className="me-1" />
              {t('brandColor.clear')}
            </button>
          </div>
        )}
      </BoundField>
      <div className="col-md-6">
        <p className="form-label mb-2">{t('brandColor.preview')}</p>
        <div
          className={`border rounded overflow-hidden${color ? ' brand-scope' : ''}`}
          style={brandStyle(color ? brandPalette(color) : null)}
          data-testid="settings-brand-preview"
        >
          <div className="brand-band px-3 py-2 fw-semibold">{t('brandColor.band')}</div>
          <div className="p-3 d-flex flex-wrap gap-2 align-items-center pe-none">
            <span className="btn btn-primary" data-testid="settings-brand-preview-button">
              {t('brandColor.button')}
            </span>
            <span className="btn btn-outline-primary">{t('brandColor.outline')}</span>
            <span className="text-decoration-underline" style={{ color: 'var(--bs-link-color)' }}>
              {t('brandColor.link')}
            </span>
          </div>
        </div>
      </div>
    </div>
  );
}
