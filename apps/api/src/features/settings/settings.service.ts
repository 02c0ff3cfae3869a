import { type SaleDocumentType, saleDocumentTypes } from '@odontia/shared/commercial';
import type {
  ClinicSettings,
  NumberingRow,
  SetNextNumber,
  UpdateClinicSettings,
} from '@odontia/shared/schemas/clinic-settings';
import type { RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { audit, auditClinicSettings } from '../audit/audit.repository.ts';
import { changedColumns } from '../audit/record-changes.ts';
import { invalidFields } from '../clinical/clinical.service.ts';
import { hasMoneyRows } from '../commercial/clinic-currency.ts';
import { rebuildDayFigures } from '../figures/day-figures.repository.ts';
import { findPointOfSaleByCode } from '../fiscal/fiscal.repository.ts';
import { lockSaleSequence } from '../sales/sale-chain.ts';
import * as repository from './settings.repository.ts';

/**
 * The clinic's system settings (issue 19, spec §1): columns of `accounts`, versioned by
 * `accounts.version` (shared with the fiscal data and the reminder settings: a stale form answers
 * 409 rather than undoing another edit), audited as `system_setting_updated` with only the fields
 * that changed. And the numbering of its sales: the next number of a point of sale's document
 * type, set for a clinic that comes from another system — always above the last number issued,
 * so no issued number is ever given twice.
 */

function present(row: repository.SettingsRow, installationMaxMb: number): ClinicSettings {
  return {
    currency: row.systemCurrency as ClinicSettings['currency'],
    dateFormat: row.dateFormat as ClinicSettings['dateFormat'],
    defaultLanguage: row.defaultLanguage as ClinicSettings['defaultLanguage'],
    timeZone: row.timeZone,
    lockAfterMinutes: row.lockAfterMinutes,
    remindersEnabled: row.remindersEnabled,
    reminderLeadMinutes: row.reminderLeadMinutes,
    uploadMaxMb: row.uploadMaxMb,
    portalPaymentInstructions: row.portalPaymentInstructions,
    recallMessageDays: row.recallMessageDays,
    instalmentReminderDays: row.instalmentReminderDays,
    brandColor: row.brandColor,
    uploadMaxMbLimit: installationMaxMb,
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

function columnsOf(row: repository.SettingsColumns): repository.SettingsColumns {
  return Object.fromEntries(
    repository.settingsColumnNames.map((name) => [name, row[name]]),
  ) as unknown as repository.SettingsColumns;
}

const changed = (before: repository.SettingsColumns, after: repository.SettingsColumns) =>
  changedColumns(repository.settingsColumnNames, before, after);

function numberingRow(row: {
  pointOfSale: NumberingRow['pointOfSale'];
  documentType: string;
  lastNumber: number;
  lastIssued: number;
}): NumberingRow {
  return {
    pointOfSale: row.pointOfSale,
    documentType: row.documentType as SaleDocumentType,
    lastIssued: row.lastIssued,
    nextNumber: row.lastNumber + 1,
  };
}

/** The service, given the installation's largest upload (UPLOAD_MAX_MB). */
export function createSettingsService({ installationMaxMb }: { installationMaxMb: number }) {
  return {
    async get({ ctx }: { ctx: RequestContext }): Promise<ClinicSettings> {
      return present(await repository.findSettings(ctx), installationMaxMb);
    },

    /** A new version of the settings; 409 version_conflict with the current ones when stale. */
    async update({
      ctx,
      input,
    }: {
      ctx: RequestContext;
      input: UpdateClinicSettings;
    }): Promise<{ settings: ClinicSettings; remindersChanged: boolean }> {
      if (input.uploadMaxMb !== null && input.uploadMaxMb > installationMaxMb)
        throw invalidFields([{ path: 'uploadMaxMb', code: 'too_big', max: installationMaxMb }]);
      const current = await repository.findSettings(ctx, { lock: true });
      if (current.version !== input.version)
        throw new AppError('version_conflict', { current: present(current, installationMaxMb) });
      const next: repository.SettingsColumns = {
        systemCurrency: input.currency,
        dateFormat: input.dateFormat,
        defaultLanguage: input.defaultLanguage,
        timeZone: input.timeZone,
        lockAfterMinutes: input.lockAfterMinutes,
        remindersEnabled: input.remindersEnabled,
        reminderLeadMinutes: input.reminderLeadMinutes,
        uploadMaxMb: input.uploadMaxMb,
        portalPaymentInstructions:
          input.portalPaymentInstructions === undefined
            ? current.portalPaymentInstructions
            : input.portalPaymentInstructions,
        recallMessageDays: input.recallMessageDays ?? current.recallMessageDays,
        instalmentReminderDays: input.instalmentReminderDays ?? current.instalmentReminderDays,
        brandColor: input.brandColor === undefined ? current.brandColor : input.brandColor,
      };
      // Issue 35: documents and money are in the clinic's currency; it stays while any exist
      // (the database's keys refuse it too).
      if (next.systemCurrency !== current.systemCurrency && (await hasMoneyRows(ctx)))
        throw new AppError('currency_in_use', { currency: current.systemCurrency });
      await repository.updateSettings(ctx, next);
      // The kept day figures of appointments, attendances and new patients are by the clinic's day.
      if (next.timeZone !== current.timeZone) await rebuildDayFigures(ctx);
      await auditClinicSettings(ctx, 'system_setting_updated', changed(columnsOf(current), next), current.version);
      // A reminder is planned when its appointment is booked or moved (reminder-plan.ts): a new lead,
      // or reminders turned on or off, applies from then on, which the answer says.
      const remindersChanged =
        next.remindersEnabled !== current.remindersEnabled || next.reminderLeadMinutes !== current.reminderLeadMinutes;
      return { settings: present(await repository.findSettings(ctx), installationMaxMb), remindersChanged };
    },

    /** Every active point of sale × sale document type, by code then type. */
    async numbering({ ctx }: { ctx: RequestContext }): Promise<NumberingRow[]> {
      const rows = await repository.listNumbering(ctx, saleDocumentTypes);
      return rows.map((row) =>
        numberingRow({ ...row, pointOfSale: { id: row.pointOfSaleId, code: row.code, name: row.name } }),
      );
    },

    /**
     * Sets the number the next issue of this point of sale and type takes: it writes the
     * sequence's last number as next − 1. 409 next_number_not_above_issued when a number at or
     * above it was already issued; 409 point_of_sale_inactive for an unknown or inactive one.
     */
    async setNextNumber({ ctx, input }: { ctx: RequestContext; input: SetNextNumber }): Promise<NumberingRow> {
      const pointOfSale = await findPointOfSaleByCode(ctx, input.pointOfSale);
      if (!pointOfSale?.active)
        throw new AppError('point_of_sale_inactive', { pointOfSale: { code: input.pointOfSale } });
      const lastNumber = await lockSaleSequence(ctx, pointOfSale.code, input.documentType);
      const lastIssued = await repository.lastIssuedNumber(ctx, pointOfSale.code, input.documentType);
      if (input.nextNumber <= lastIssued) throw new AppError('next_number_not_above_issued', { lastIssued });
      await repository.setLastNumber(ctx, pointOfSale.code, input.documentType, input.nextNumber - 1);
      await audit(ctx, {
        action: 'sale_numbering_updated',
        entity: 'point_of_sale',
        entityId: pointOfSale.id,
        before: { documentType: input.documentType, nextNumber: lastNumber + 1 },
        after: { documentType: input.documentType, nextNumber: input.nextNumber },
      });
      return numberingRow({
        pointOfSale,
        documentType: input.documentType,
        lastNumber: input.nextNumber - 1,
        lastIssued,
      });
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
