import type { TenantTx } from '../db/tenancy.ts';
import {
  defaultCertificateTemplates,
  defaultTemplates,
  demoTemplates,
} from '../features/authorizations/template-texts.ts';
import { insertTemplates } from '../features/authorizations/templates.repository.ts';
import { newId } from '../lib/ids.ts';

/**
 * The demo clinic's informed-consent templates (issue 6): the general one every clinic gets at
 * sign-up, and the two procedure ones (tooth extraction, root canal treatment), in Spanish; and the
 * certificate templates of every clinic (issue 24).
 */
export async function seedDemoAuthorizationTemplates(
  tx: TenantTx,
  accountId: string,
  { administratorId }: { administratorId: string },
): Promise<void> {
  await insertTemplates(
    tx,
    [...demoTemplates, defaultTemplates.es, ...defaultCertificateTemplates('es')].map((template) => ({
      accountId,
      id: newId(),
      ...template,
      createdBy: administratorId,
      updatedBy: administratorId,
    })),
  );
}
