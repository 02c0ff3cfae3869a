import { installFieldCodes } from '@odontia/shared/validation';

/*
 * Imported first by the forms (a side-effect import): every zod message a field code (namespace
 * `validation`). Zod's browser configuration (no JIT: the CSP forbids eval) is made by
 * @odontia/shared/validation itself, before any schema is built, whichever chunk holds it.
 */
installFieldCodes();
