import '../../lib/zod-setup';
import { type InventoryItem, stockAdjustmentRequestSchema } from '@odontia/shared/schemas/inventory';
import { Check } from 'lucide-react';
import { Fragment, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/bound-fields';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useZodForm } from '../../lib/use-zod-form';
import { useAdjustStock } from './api';
import { useNumberFormat } from './format';

interface ShortItem {
  name: string;
  available: number;
  requested: number;
}

/** A supervisor's stock adjustment: in or out, how many, why, and (coming in) the unit cost. */
export function AdjustStockModal({ item, show, onClose }: { item: InventoryItem; show: boolean; onClose: () => void }) {
  const { t } = useTranslation(['inventory', 'common']);
  const id = useId();
  const number = useNumberFormat();
  const adjust = useAdjustStock(item.kind, item.id);
  const [short, setShort] = useState<ShortItem | null>(null);
  const form = useZodForm(stockAdjustmentRequestSchema, { direction: 'in', quantity: '', reason: '', unitCost: '' });
  const { formErrors } = form;
  const direction = useWatch({ control: form.control, name: 'direction' });

  const close = () => {
    form.reset();
    setShort(null);
    onClose();
  };

  const onSubmit = form.submit(async (body) => {
    try {
      // Stock going out has no unit cost: the field is left out of the body.
      const answer = await adjust.mutateAsync(direction === 'out' ? { ...body, unitCost: undefined } : body);
      toastSuccess(answer.code);
      close();
    } catch (error) {
      if (isApiError(error) && error.code === 'insufficient_stock') {
        const items = (error.details?.items ?? []) as Partial<ShortItem>[];
        const found = items[0];
        setShort({
          name: found?.name ?? item.name,
          available: found?.available ?? item.totalStock,
          requested: found?.requested ?? body.quantity,
        });
        return;
      }
      const shown =
        direction === 'in' ? (['quantity', 'reason', 'unitCost'] as const) : (['quantity', 'reason'] as const);
      const placed = formErrors.place(error, form.setError, { fields: shown });
      if (!placed) toastApiError(error);
    }
  });

  const field = (name: 'quantity' | 'reason' | 'unitCost', inputMode?: 'numeric' | 'decimal') => (
    <TextField
      form={form}
      name={name}
      label={t(`adjust.${name}`)}
      className="mb-3"
      inputMode={inputMode}
      onInput={name === 'quantity' ? () => setShort(null) : undefined}
    />
  );

  return (
    <Modal show={show} onHide={close} centered aria-labelledby={`${id}-title`}>
      <form
        ref={formErrors.ref}
        noValidate
        onSubmit={(event) => {
          // Every attempt, valid or not, replaces the last answer: no stale "not enough stock" beside it.
          setShort(null);
          void onSubmit(event);
        }}
        data-testid="adjust-stock"
      >
        <Modal.Header closeButton closeLabel={t('common:close')}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {t('adjust.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="text-body-secondary">{t('adjust.text', { name: item.name, stock: number(item.totalStock) })}</p>
          {short ? (
            <FormAlert testId="insufficient-stock">
              {t('adjust.insufficient', {
                name: short.name,
                available: number(short.available),
                requested: number(short.requested),
              })}
            </FormAlert>
          ) : null}
          <fieldset className="mb-3">
            <legend className="form-label fs-6">{t('adjust.direction')}</legend>
            <div className="btn-group w-100">
              {(['in', 'out'] as const).map((value) => (
                <Fragment key={value}>
                  <input
                    {...form.register('direction', { onChange: () => setShort(null) })}
                    type="radio"
                    value={value}
                    className="btn-check"
                    id={`${id}-direction-${value}`}
                  />
                  <label
                    className={`btn ${value === 'in' ? 'btn-outline-success' : 'btn-outline-danger'}`}
                    htmlFor={`${id}-direction-${value}`}
                    data-testid={`adjust-direction-${value}`}
                  >
                    {t(`adjust.directions.${value}`)}
                  </label>
                </Fragment>
              ))}
            </div>
          </fieldset>
          {field('quantity', 'numeric')}
          {field('reason')}
          {direction === 'in' ? field('unitCost', 'decimal') : null}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={close}>
            {t('adjust.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
            <BusyIcon busy={form.formState.isSubmitting} icon={Check} />
            {t('adjust.submit')}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
