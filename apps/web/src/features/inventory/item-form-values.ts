import { normalizeDecimal } from '@odontia/shared/decimal-input';
import type {
  AgeGroup,
  ApplicationType,
  ApprovalStatus,
  InventoryKind,
  ProductStatus,
  UnitMeasurement,
} from '@odontia/shared/enums';
import { approvalTransitions } from '@odontia/shared/enums';
import { priceWithTax } from '@odontia/shared/money';
import {
  createMedicationRequestSchema,
  createSupplyRequestSchema,
  type InventoryItem,
  updateMedicationRequestSchema,
  updateSupplyRequestSchema,
} from '@odontia/shared/schemas/inventory';
import { z } from 'zod';

export interface ItemFormValues {
  name: string;
  description: string;
  manufacturer: string;
  sku: string;
  barCode: string;
  productStatus: ProductStatus;
  costPrice: string;
  basePrice: string;
  taxRate: string;
  totalStock: string;
  minStock: string;
  reorderStock: string;
  maxStock: string;
  storageConditions: string;
  activePrinciple: string;
  concentration: string;
  presentation: string;
  applicationType: ApplicationType | '';
  prescriptionRequired: boolean;
  approvalStatus: ApprovalStatus;
  ageRestriction: AgeGroup | '';
  dosage: string;
  indications: string;
  sideEffects: string;
  contraindications: string;
  brand: string;
  model: string;
  consumable: boolean;
  unitMeasurement: UnitMeasurement;
  packagingQty: string;
  version: number;
}

export const fieldNames = [
  'name',
  'description',
  'manufacturer',
  'sku',
  'barCode',
  'productStatus',
  'costPrice',
  'basePrice',
  'taxRate',
  'totalStock',
  'minStock',
  'reorderStock',
  'maxStock',
  'storageConditions',
  'activePrinciple',
  'concentration',
  'presentation',
  'applicationType',
  'prescriptionRequired',
  'approvalStatus',
  'ageRestriction',
  'dosage',
  'indications',
  'sideEffects',
  'contraindications',
  'brand',
  'model',
  'consumable',
  'unitMeasurement',
  'packagingQty',
] as const satisfies readonly (keyof ItemFormValues)[];

export const text = (value: string | null | undefined) => value ?? '';
export const count = (value: number | null | undefined) => (value == null ? '' : String(value));

/** The form's values: a saved item's, or the defaults of a new one. */
export function formValuesOf(item: InventoryItem | null): ItemFormValues {
  return {
    name: text(item?.name),
    description: text(item?.description),
    manufacturer: text(item?.manufacturer),
    sku: text(item?.sku),
    barCode: text(item?.barCode),
    productStatus: item?.productStatus ?? 'active',
    costPrice: item?.costPrice ?? '',
    basePrice: item?.basePrice ?? '',
    taxRate: item?.taxRate ?? '21',
    totalStock: item ? String(item.totalStock) : '0',
    minStock: item ? String(item.minStock) : '0',
    reorderStock: item ? String(item.reorderStock) : '0',
    maxStock: count(item?.maxStock),
    storageConditions: text(item?.storageConditions),
    activePrinciple: text(item?.activePrinciple),
    concentration: text(item?.concentration),
    presentation: text(item?.presentation),
    applicationType: item?.applicationType ?? '',
    prescriptionRequired: item?.prescriptionRequired ?? false,
    approvalStatus: item?.approvalStatus ?? 'underReview',
    ageRestriction: item?.ageRestriction ?? '',
    dosage: text(item?.dosage),
    indications: text(item?.indications),
    sideEffects: text(item?.sideEffects),
    contraindications: text(item?.contraindications),
    brand: text(item?.brand),
    model: text(item?.model),
    consumable: item?.consumable ?? true,
    unitMeasurement: item?.unitMeasurement ?? 'unit',
    packagingQty: count(item?.packagingQty),
    version: item?.version ?? 1,
  };
}

/** A new medicine starts under review or approved (the server refuses the others, `invalid_transition`). */
export const startingApprovals: readonly ApprovalStatus[] = ['underReview', 'approved'];

/** On the edit page, only the allowed next approval statuses (and the current one). */
export function approvalOptionsOf(item: InventoryItem | null): readonly ApprovalStatus[] {
  return item?.approvalStatus ? [item.approvalStatus, ...approvalTransitions[item.approvalStatus]] : startingApprovals;
}

/** The empty choice of an optional select means "none" (null), as the contract says. */
export const blankChoicesToNull = (value: unknown) => {
  if (!value || typeof value !== 'object') return value;
  const values = { ...(value as Record<string, unknown>) };
  for (const key of ['applicationType', 'ageRestriction']) if (values[key] === '') values[key] = null;
  return values;
};

/** The shared request schema of the kind and mode, fed by the form's text inputs. */
export function schemaFor(kind: InventoryKind, editing: boolean) {
  const schema =
    kind === 'medication'
      ? editing
        ? updateMedicationRequestSchema
        : createMedicationRequestSchema
      : editing
        ? updateSupplyRequestSchema
        : createSupplyRequestSchema;
  return z.preprocess(blankChoicesToNull, schema);
}

/** The price with tax while the user types, or null while the amounts are not valid yet. */
export function livePriceWithTax(basePrice: string, taxRate: string): string | null {
  const base = normalizeDecimal(basePrice) ?? '';
  const rate = normalizeDecimal(taxRate) ?? '';
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(base) || !/^\d{1,3}(\.\d{1,2})?$/.test(rate)) return null;
  return priceWithTax(base, rate);
}
