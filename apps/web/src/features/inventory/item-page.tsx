import '../../lib/zod-setup';
import type { InventoryKind } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { ArrowLeft, PackagePlus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { IconTextButton } from '../../components/icon-button';
import { IconLink } from '../../components/icon-link';
import { PageTitle } from '../../components/page-title';
import { RecordNotFound } from '../../components/record-not-found';
import { Spinner } from '../../components/spinner';
import { isNotFoundError, isRecordId } from '../../lib/record-id';
import { useSessionUser } from '../../session/session';
import { AdjustStockModal } from './adjust-stock-modal';
import { kindPaths, useInventoryItem } from './api';
import { ApprovalBadge, ProductStatusBadge, StockBadge } from './badges';
import { itemDetails, useNumberFormat } from './format';
import { ItemForm } from './item-form';
import { StockHistory } from './stock-history';

function BackLink({ kind }: { kind: InventoryKind }) {
  const { t } = useTranslation('common');
  return (
    <IconLink
      to={kindPaths[kind].web}
      className="btn btn-link px-0 mb-2 inventory-back"
      icon={ArrowLeft}
      iconClassName="me-1"
    >
      {t(`pages.${kind === 'medication' ? 'medications' : 'supplies'}`)}
    </IconLink>
  );
}

/** Current stock, its levels and the adjustment button (inventory.write). */
function StockSummary({ item, canWrite }: { item: InventoryItem; canWrite: boolean }) {
  const { t } = useTranslation('inventory');
  const number = useNumberFormat();
  const [adjusting, setAdjusting] = useState(false);
  const unit = item.kind === 'supply' && item.unitMeasurement ? t(`unitMeasurements.${item.unitMeasurement}`) : null;
  const levels: [string, number | null][] = [
    ['minStock', item.minStock],
    ['reorderStock', item.reorderStock],
    ['maxStock', item.maxStock],
  ];
  return (
    <section className="card stock-summary" data-testid="stock-summary">
      <div className="card-body">
        <div className="stock-summary-grid">
          <div>
            <div className="small text-body-secondary">{t('stock.current')}</div>
            <div className="d-flex align-items-center gap-2 flex-wrap">
              <span className="fs-3 fw-semibold" data-testid="current-stock">
                {number(item.totalStock)}
              </span>
              {unit ? <span className="text-body-secondary">{unit}</span> : null}
              <StockBadge level={item.stockLevel} />
            </div>
          </div>
          <dl className="stock-levels mb-0">
            {levels.map(([key, value]) => (
              <div key={key}>
                <dt className="small text-body-secondary fw-normal">{t(`fields.${key}`)}</dt>
                <dd className="mb-0 fw-semibold">{value === null ? t('stock.noMaximum') : number(value)}</dd>
              </div>
            ))}
          </dl>
          {canWrite ? (
            <div className="stock-summary-action">
              <IconTextButton
                icon={PackagePlus}
                className="btn btn-outline-primary"
                onClick={() => setAdjusting(true)}
                testId="adjust-open"
              >
                {t('adjust.open')}
              </IconTextButton>
            </div>
          ) : null}
        </div>
      </div>
      {canWrite ? <AdjustStockModal item={item} show={adjusting} onClose={() => setAdjusting(false)} /> : null}
    </section>
  );
}

/** `/medications/create`, `/supplies/create`: a new item. */
export function CreateItemPage({ kind }: { kind: InventoryKind }) {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t(`pages.${kind === 'medication' ? 'medicationCreate' : 'supplyCreate'}`)} />
      <div className="inventory-page" data-testid="inventory-create">
        <BackLink kind={kind} />
        <ItemForm kind={kind} item={null} />
      </div>
    </>
  );
}

/**
 * `/medications/edit/:id_pharmacy`, `/supplies/edit/:id_supplie`: the item page. Its form (read-only
 * without inventory.write), its stock with the adjustment, and its movement history.
 */
export function EditItemPage({ kind, id }: { kind: InventoryKind; id: string }) {
  const { t } = useTranslation(['inventory', 'common', 'messages']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'inventory.write') : false;
  const query = useInventoryItem(kind, id);
  const [conflict, setConflict] = useState(false);
  const item = query.data;
  const listName = t(`common:pages.${kind === 'medication' ? 'medications' : 'supplies'}`);

  if (!isRecordId(id) || (query.isError && isNotFoundError(query.error))) {
    return (
      <RecordNotFound
        title={t('common:pages.notFound')}
        code={`${kind}_not_found`}
        backTo={kindPaths[kind].web}
        backLabel={t('common:recordNotFound.back', { place: listName })}
      />
    );
  }
  if (query.isPending) {
    return (
      <div className="text-center py-5">
        <Spinner size={8} />
      </div>
    );
  }
  if (query.isError || !item) {
    return (
      <div className="inventory-page">
        <BackLink kind={kind} />
        <FormAlert testId="item-load-error">
          {t('inventory:list.loadError')}
          <button type="button" className="btn btn-link" onClick={() => void query.refetch()}>
            {t('inventory:list.retry')}
          </button>
        </FormAlert>
      </div>
    );
  }

  const details = itemDetails(item);
  return (
    <>
      <PageTitle title={item.name} />
      <div className="inventory-page d-flex flex-column gap-4" data-testid="inventory-item" data-kind={kind}>
        <div>
          <BackLink kind={kind} />
          <div className="d-flex flex-wrap align-items-center gap-2">
            <h1 className="h3 mb-0 me-2" data-testid="item-name">
              {item.name}
            </h1>
            <ProductStatusBadge status={item.productStatus} />
            {kind === 'medication' ? <ApprovalBadge status={item.approvalStatus} /> : null}
          </div>
          {details ? <div className="text-body-secondary">{details}</div> : null}
          {canWrite ? null : (
            <div className="alert alert-info mt-3 mb-0 py-2" role="status" data-testid="read-only">
              {t('inventory:form.readOnly')}
            </div>
          )}
        </div>
        <StockSummary item={item} canWrite={canWrite} />
        {conflict ? (
          <div className="alert alert-warning mb-0" role="alert" data-testid="version-conflict">
            {t('inventory:form.conflict')}
          </div>
        ) : null}
        <ItemForm
          key={item.version}
          kind={kind}
          item={item}
          readOnly={!canWrite}
          onConflict={async () => {
            setConflict(true);
            await query.refetch();
          }}
        />
        <StockHistory kind={kind} itemId={item.id} />
      </div>
    </>
  );
}
