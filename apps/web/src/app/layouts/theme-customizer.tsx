import { type MenuSize, menuSizes, type ThemeMode, themeModes } from '@odontia/shared/appearance';
import { RotateCcw } from 'lucide-react';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { useTranslation } from 'react-i18next';
import { IconTextButton } from '../../components/icon-button';
import { useNotification } from '../../lib/notifications';
import { useThemeSettings } from '../../lib/theme-context';
import { useLayoutUi } from './layout-ui-context';

interface RadioGroupProps<T extends string> {
  name: string;
  legend: string;
  options: readonly T[];
  value: T;
  labelOf: (option: T) => string;
  onChange: (value: T) => void;
  columns?: 1 | 2;
}

function RadioGroup<T extends string>({
  name,
  legend,
  options,
  value,
  labelOf,
  onChange,
  columns = 2,
}: RadioGroupProps<T>) {
  return (
    <fieldset className="customizer-section">
      <legend className="customizer-legend">{legend}</legend>
      <div className={`customizer-options customizer-options-${columns}`}>
        {options.map((option) => {
          const id = `${name}-${option}`;
          return (
            <div key={option} className="form-check customizer-option">
              <input
                className="form-check-input"
                type="radio"
                name={name}
                id={id}
                value={option}
                checked={value === option}
                onChange={() => onChange(option)}
              />
              <label className="form-check-label" htmlFor={id}>
                {labelOf(option)}
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

export function ThemeCustomizer() {
  const { t } = useTranslation('layout');
  const { customizerOpen, setCustomizerOpen } = useLayoutUi();
  const { settings, setTheme, setTopbarTheme, setMenuTheme, setMenuSize, resetSettings } = useThemeSettings();
  const showNotification = useNotification();
  const modeLabel = (mode: ThemeMode) => t(`customizer.modes.${mode}`);

  // The three colour choices: the page, the top bar, the menu.
  const themeGroups = [
    { name: 'layout-theme', legend: 'customizer.colorScheme', value: settings.theme, onChange: setTheme },
    { name: 'topbar-theme', legend: 'customizer.topbarColor', value: settings.topbarTheme, onChange: setTopbarTheme },
    { name: 'menu-theme', legend: 'customizer.menuColor', value: settings.menu.theme, onChange: setMenuTheme },
  ] as const;

  const reset = () => {
    resetSettings();
    showNotification({ message: t('customizer.resetDone'), variant: 'success' });
  };

  return (
    <Offcanvas
      show={customizerOpen}
      onHide={() => setCustomizerOpen(false)}
      placement="end"
      className="layout-offcanvas customizer"
      aria-labelledby="customizer-title"
      data-testid="theme-customizer"
    >
      <Offcanvas.Header closeButton closeLabel={t('common:close')}>
        <div>
          <Offcanvas.Title as="h2" id="customizer-title" className="h5 mb-1">
            {t('customizer.title')}
          </Offcanvas.Title>
          <p className="small text-body-secondary mb-0">{t('customizer.subtitle')}</p>
        </div>
      </Offcanvas.Header>
      <Offcanvas.Body>
        {themeGroups.map((group) => (
          <RadioGroup<ThemeMode>
            key={group.name}
            {...group}
            legend={t(group.legend)}
            options={themeModes}
            labelOf={modeLabel}
          />
        ))}
        <RadioGroup<MenuSize>
          name="menu-size"
          legend={t('customizer.menuSize')}
          options={menuSizes}
          value={settings.menu.size}
          labelOf={(size) => t(`customizer.sizes.${size}`)}
          onChange={setMenuSize}
          columns={1}
        />
      </Offcanvas.Body>
      <div className="offcanvas-footer">
        <IconTextButton icon={RotateCcw} className="btn btn-outline-danger w-100" onClick={reset}>
          {t('customizer.reset')}
        </IconTextButton>
      </div>
    </Offcanvas>
  );
}
