import '../auth/zod-setup';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { type StockAdjustmentRequest, stockAdjustmentRequestSchema } from '@odontia/shared/schemas/inventory';
import { Check } from 'lucide-react';
import { Fragment, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { useAdjustStock } from './api';
import { useNumberFormat } from './format';

interface AdjustValues {
  direction: 'in' | 'out';
  quantity: string;
  reason: string;
  unitCost: string;
}

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
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<AdjustValues>({
    resolver: formResolver(stockAdjustmentRequestSchema) as unknown as Resolver<AdjustValues>,
    defaultValues: { direction: 'in', quantity: '', reason: '', unitCost: '' },
  });
  const direction = useWatch({ control, name: 'direction' });

  const close = () => {
    reset();
    setShort(null);
    onClose();
  };

  const onSubmit = handleSubmit(
    async (values) => {
      setShort(null);
      const body = values as unknown as StockAdjustmentRequest;
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
            requested: found?.requested ?? Number(values.quantity),
          });
          return;
        }
        const shown =
          direction === 'in' ? (['quantity', 'reason', 'unitCost'] as const) : (['quantity', 'reason'] as const);
        const placed = formErrors.place(error, setError, { fields: shown });
        if (!placed) toastApiError(error);
      }
    },
    () => {
      // A new mistake replaces the last answer: no stale "not enough stock" beside it.
      setShort(null);
      formErrors.onInvalid();
    },
  );

  const field = (name: 'quantity' | 'reason' | 'unitCost', options: { inputMode?: 'numeric' | 'decimal' } = {}) => {
    const message = errors[name]?.message;
    return (
      <FormField id={`${id}-${name}`} label={t(`adjust.${name}`)} error={message}>
        <input
          {...register(name, { onChange: name === 'quantity' ? () => setShort(null) : undefined })}
          {...describedField(`${id}-${name}`, message)}
          className={inputClass(message)}
          inputMode={options.inputMode}
          autoComplete="off"
        />
      </FormField>
    );
  };

  return (
    <Modal show={show} onHide={close} centered aria-labelledby={`${id}-title`}>
      <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="adjust-stock">
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
                    {...register('direction', { onChange: () => setShort(null) })}
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
          {field('quantity', { inputMode: 'numeric' })}
          {field('reason')}
          {direction === 'in' ? field('unitCost', { inputMode: 'decimal' }) : null}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={close}>
            {t('adjust.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
            {isSubmitting ? (
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
            ) : (
              <Check size={16} aria-hidden="true" className="me-2" />
            )}
            {t('adjust.submit')}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
