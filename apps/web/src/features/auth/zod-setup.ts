import { installFieldCodes } from '@odontia/shared/validation';
import { z } from 'zod';

/*
 * Imported first by the forms (a side-effect import, so it runs before the shared schemas are
 * built): no `new Function` probe or JIT, because the CSP forbids eval and the probe alone is
 * reported as a violation; every zod message a field code (namespace `validation`).
 */
z.config({ jitless: true });
installFieldCodes();
