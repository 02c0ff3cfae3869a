/**
 * Every message code the server can answer, with its HTTP status.
 * The web client translates the code (namespace `messages`); the server never sends UI text
 * that the client has to parse. Spec §8 lists the codes; ARCHITECTURE §5 the statuses.
 */

/** Entities whose reads and writes have the spec's `error_get … error_remove` codes. */
const clinicalRecordEntities = [
  'attendance',
  'diagnosis',
  'diagnosis_file',
  'health_certificate',
  'laboratory',
  'laboratory_file',
  'patient',
  'prescription',
] as const;

/** The agenda's entities (issue 16): `error_get … error_delete` of each. */
const agendaEntities = ['appointment', 'treatment', 'chair', 'schedule', 'schedule_exception'] as const;

/** Commercial entities with create, update and delete error codes. */
const commercialEntities = ['provider', 'purchase', 'sale', 'payment', 'collection'] as const;

/** The writes of the clinical records include `remove` (a file taken off a record). */
const recordVerbs = ['get', 'create', 'update', 'delete', 'remove'] as const;
const entityVerbs = ['get', 'create', 'update', 'delete'] as const;

/**
 * The spec's failure codes of a family of entities, `error_<verb>_<entity>`, each answered 500:
 * one generator for the clinical records, the agenda and the commercial wing.
 */
function failureCodes<Entity extends string, Verb extends string>(
  entities: readonly Entity[],
  verbs: readonly Verb[],
): Record<`error_${Verb}_${Entity}`, 500> {
  return Object.fromEntries(
    entities.flatMap((entity) => verbs.map((verb) => [`error_${verb}_${entity}`, 500] as const)),
  ) as Record<`error_${Verb}_${Entity}`, 500>;
}

/** Error codes and the HTTP status each one leaves the server with. */
export const errorStatuses = {
  // General
  validation_error: 400,
  current_password_incorrect: 400,
  bad_request: 400,
  /** A total the database cannot keep (numeric(14,2)): a sum of amounts each within bounds. */
  amount_too_big: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  session_locked: 401,
  session_expired: 401,
  forbidden: 403,
  account_not_activated: 403,
  user_inactive: 403,
  not_found: 404,
  route_not_found: 404,
  user_not_found: 404,
  /** The clinic switch (issue 19): not one of the person's active clinics. */
  clinic_not_found: 404,
  invalid_token: 404,
  account_already_activated: 409,
  email_already_exists: 409,
  token_expired: 410,
  /** The patient portal (issue 37): a patient without an e-mail cannot be invited. */
  patient_email_required: 409,
  /** The patient's e-mail already signs in to this clinic as someone else (a user, another patient). */
  portal_email_in_use: 409,
  /** The portal's first password: the sign-in already has one (changed with the current one). */
  password_already_set: 409,
  /** The portal's sign-in (issue 37): right password, but no patient membership to enter. */
  portal_access_none: 403,
  version_conflict: 409,
  cannot_deactivate_self: 409,
  last_administrator: 409,
  invalid_transition: 409,
  insufficient_stock: 409,
  /** The stock of an item would pass `maxStockQuantity` (details.items: id, name, available, max). */
  stock_above_limit: 409,
  duplicate_value: 409,
  duplicate_sku: 409,
  duplicate_barcode: 409,
  /**
   * A new supply or medicine named as one of the same catalogue but for accents and case
   * (details.existingId, details.name): `allowSimilarName: true` creates it anyway.
   */
  inventory_similar_name: 409,
  /** Another patient of the clinic has this ID number (details.existingId links to them). */
  duplicate_ssn: 409,
  /** A finished attendance cannot be edited; corrections go in an addendum. */
  attendance_finished: 409,
  /** Addenda correct a finished attendance; an open one is edited instead. */
  attendance_not_finished: 409,
  import_has_errors: 400,
  file_too_large: 413,
  files_too_large: 413,
  payload_too_large: 413,
  /** An address (a path segment) longer than the router takes (issue 35: Fastify's own 414, as `{ code, message }`). */
  uri_too_long: 414,
  /** Headers (or the request line) larger than the server reads. */
  headers_too_large: 431,
  /** A request that did not arrive in time. */
  request_timeout: 408,
  /** A multipart body without a valid boundary, malformed or cut short (issue 14). */
  invalid_multipart_body: 400,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal_server_error: 500,
  error_sending_email: 502,
  service_unavailable: 503,

  // Not found (another clinic's id answers the same)
  attendance_not_found: 404,
  attendance_detail_not_found: 404,
  diagnosis_not_found: 404,
  laboratory_not_found: 404,
  odontogram_not_found: 404,
  perio_exam_not_found: 404,
  patient_not_found: 404,
  prescription_not_found: 404,
  prescription_file_not_found: 404,
  health_certificate_not_found: 404,
  authorization_not_found: 404,
  file_not_found: 404,
  medication_not_found: 404,
  supply_not_found: 404,
  /** A stock movement named an item that is not in the clinic's catalogue. */
  inventory_item_not_found: 404,
  provider_not_found: 404,
  purchase_not_found: 404,
  sale_not_found: 404,
  payment_not_found: 404,
  collection_not_found: 404,
  appointment_not_found: 404,
  treatment_not_found: 404,
  chair_not_found: 404,
  schedule_exception_not_found: 404,
  /** Recalls (issue 38): another clinic's id or none. */
  recall_not_found: 404,
  /** A step on a recall already booked or closed. */
  recall_not_open: 409,
  error_get_recall: 500,
  error_update_recall: 500,
  // Payment plans (issue 40)
  payment_plan_not_found: 404,
  /** A plan on a document that is not an issued invoice or debit note of a customer. */
  payment_plan_document_invalid: 409,
  /** The invoice has nothing left to finance, or less than the amount asked. */
  payment_plan_amount_exceeds_pending: 409,
  /** The invoice already has an active plan (cancel it to replace it). */
  payment_plan_exists: 409,
  /** Cancelling a plan already cancelled or paid in full. */
  payment_plan_not_active: 409,
  /** A budget's plan is interest-free (docs/decisions.md "Payment plans on budgets"). */
  payment_plan_budget_interest: 409,
  /** A collection against a plan that is not an active budget plan of the collection's customer. */
  payment_plan_collection_invalid: 409,
  error_get_payment_plan: 500,
  error_create_payment_plan: 500,
  error_cancel_payment_plan: 500,
  // Treatment plans (issue 41)
  treatment_plan_not_found: 404,
  /** A session that is not of this plan. */
  treatment_plan_session_not_found: 404,
  /** The step does not apply to the plan's status (details.status): edit or answer once accepted, present twice… */
  treatment_plan_status_invalid: 409,
  /** Accepting an alternative without items. */
  treatment_plan_empty: 409,
  /** Booking a session of a plan that is not accepted. */
  treatment_plan_not_accepted: 409,
  /** Booking a session already done or already booked (details.appointmentId). */
  treatment_plan_session_not_pending: 409,
  error_get_treatment_plan: 500,
  error_create_treatment_plan: 500,
  error_update_treatment_plan: 500,
  error_delete_treatment_plan: 500,
  // Dental lab cases (issue 41)
  lab_case_not_found: 404,
  /** A step the case's state does not allow (receive a draft, seat a case not checked…). */
  lab_case_transition_invalid: 409,
  /** An edit of a case already seated or cancelled. */
  lab_case_closed: 409,
  /** The invoice linked is a purchase of another provider than the case's lab. */
  lab_case_purchase_other_provider: 409,
  /** The seating appointment is another patient's. */
  lab_case_appointment_other_patient: 409,
  /** The plan item is not an item of this patient's accepted treatment plan. */
  lab_case_plan_item_invalid: 409,
  error_get_lab_case: 500,
  error_create_lab_case: 500,
  error_update_lab_case: 500,
  error_step_lab_case: 500,
  // Webhooks for integrators (issue 42)
  webhook_not_found: 404,
  webhook_delivery_not_found: 404,
  /** A URL the installation does not call: not https (plain http only to a private host with WEBHOOKS_ALLOW_PRIVATE_HTTP), or a private host without it. */
  webhook_url_refused: 400,
  error_get_webhook: 500,
  error_update_webhook: 500,

  // API tokens and the clinic's full export (issue 42)
  api_token_not_found: 404,
  /** A scope the creator's level does not have, or one a token may not hold (the profile, the portal). */
  api_token_scope_invalid: 400,
  /** The route is a person's own (sign-out, password, tokens…): a token may not call it. */
  api_token_not_allowed: 403,
  /** The route's action is not among the token's scopes. */
  api_token_scope_missing: 403,
  /** A clinic keeps at most this many live tokens (each person too). */
  api_token_limit_reached: 409,
  error_get_api_token: 500,
  error_create_api_token: 500,
  error_revoke_api_token: 500,
  clinic_export_not_found: 404,
  /** The export's job still runs, or it failed. */
  clinic_export_not_ready: 409,
  /** Its file was removed after its days (ask for a new one). */
  clinic_export_expired: 410,
  /** An export of the clinic is already queued or running. */
  clinic_export_running: 409,
  error_get_clinic_export: 500,
  error_create_clinic_export: 500,

  // Reading and writing clinical records
  ...failureCodes(clinicalRecordEntities, recordVerbs),

  // Treatment authorizations (informed consent)
  error_create_authorization: 500,
  error_sign_authorization: 409,
  /** Unsign asked of an authorization without a standing signature. */
  error_unsign_authorization: 409,
  error_delete_authorization: 409,
  /** A signed authorization cannot be edited or deleted; unsigning (with a reason) comes first. */
  authorization_is_signed: 409,
  authorization_template_not_found: 404,
  /** An issued certificate's printed fields never change: void it and issue it again. */
  health_certificate_issued: 409,
  /** A certificate is voided once. */
  health_certificate_already_voided: 409,
  /** A prescription may name only approved, active medicines of the catalogue (details.name). */
  medication_not_prescribable: 409,
  /**
   * A prescription names a professional without a licence number (matrícula), which it must
   * print (details.name): issue 34, docs/decisions.md "A prescription carries the matrícula".
   */
  professional_license_required: 409,
  /** The content of the file is not an allowed type, whatever its name says (details.file). */
  file_type_not_allowed: 415,

  // The agenda (issue 16)
  ...failureCodes(agendaEntities, entityVerbs),
  /** Another active appointment of the professional or the chair holds the time (details.appointment, details.resource). */
  appointment_overlaps: 409,
  /** Outside the professional's hours, in a recess or a block (details.reasons); `allowOutsideSchedule` books anyway. */
  appointment_outside_schedule: 409,
  /** Only a scheduled appointment is edited, moved, confirmed or cancelled (details.status). */
  appointment_not_scheduled: 409,
  /** A no-show is recorded once the appointment has started. */
  appointment_not_started: 409,
  /** Only a cancelled appointment is restored. */
  appointment_not_cancelled: 409,
  /** A reminder link of an appointment that was moved, cancelled, completed or is past (details.why): nothing changes. */
  appointment_link_stale: 409,

  // Online booking (issue 37)
  /** An unknown clinic address, or a clinic that does not take online bookings. */
  online_booking_unavailable: 404,
  /** The clinic turned online booking off. */
  online_booking_disabled: 409,
  /** The time is not one of the free slots offered (closed, a block, taken, outside the rules). */
  slot_unavailable: 409,
  /** Another booking took the time first (the database's exclusion constraint decided). */
  slot_taken: 409,
  /** Sooner than the clinic's minimum notice (details.leadHours). */
  online_booking_too_soon: 409,
  /** Further ahead than the clinic's horizon (details.horizonDays). */
  online_booking_too_far: 409,
  /** The patient already holds as many upcoming online bookings as the clinic allows (details.maxPending). */
  online_booking_pending_limit: 409,
  /** The clinic books only its existing patients online. */
  online_booking_new_patients_closed: 409,
  /** This e-mail already has a booking waiting for confirmation. */
  online_booking_pending_exists: 409,
  /** Too close to the appointment to confirm, cancel or reschedule it online (details.changeHours). */
  online_booking_change_closed: 409,
  /** The booking's confirmation link expired or was already used (details.why). */
  online_booking_link_stale: 409,

  // The waiting list (issue 38)
  waiting_list_entry_not_found: 404,
  error_get_waiting_list: 500,
  error_update_waiting_list: 500,
  /** A booked entry is not edited or offered a slot again. */
  waiting_list_entry_booked: 409,
  /** The offered start is not a free slot of the entry's treatment (closed, a block, taken). */
  waiting_list_slot_unavailable: 409,
  /** The patient has no e-mail to send the offer to. */
  waiting_list_patient_without_email: 409,

  // Messages to patients (issue 38)
  error_get_messages: 500,
  error_update_messages: 500,
  inbox_message_not_found: 404,
  /** WhatsApp lets a clinic write freely only within 24 hours of the patient's last message. */
  whatsapp_session_closed: 409,
  /** The reply came from a channel that is no longer configured or is switched off. */
  messaging_channel_off: 409,
  /** A new channel needs its secret (token) the first time. */
  messaging_secret_required: 400,
  opt_out_link_not_found: 404,

  // Remote signing (issue 37)
  /** A signing link that is not one (wrong, or of no clinic): nothing is said of any document. */
  signing_link_not_found: 404,
  /** A signing link already used, expired or cancelled (details.why). */
  signing_link_stale: 409,
  /** The document of a signing link was signed (at the chair), answered or voided since (details.why). */
  signing_document_closed: 409,
  /** The document changed after the link's page showed it: the patient reads it again before signing. */
  signing_document_changed: 409,
  /** A document with a pending signing request: resend or cancel it instead. */
  signing_request_pending: 409,
  /** Resend or cancel with no pending signing request. */
  signing_request_not_pending: 409,
  /** The patient has no e-mail to send the link to. */
  patient_without_email: 409,

  // Files and commercial documents
  error_download_file: 500,
  ...failureCodes(commercialEntities, entityVerbs),

  // The commercial area (issue 17)
  error_get_fiscal_data: 500,
  error_update_fiscal_data: 500,
  error_update_einvoicing: 500,
  error_get_current_account: 500,
  point_of_sale_not_found: 404,
  /** Another point of sale of the clinic has the code (details.pointOfSale). */
  point_of_sale_exists: 409,
  /** Another provider of the clinic has the tax id (details.provider: id and name). */
  provider_tax_id_exists: 409,
  /** A provider with documents or payments is deactivated, never deleted. */
  provider_has_documents: 409,
  /** The provider already has a document of that type, point of sale and number (details.document). */
  purchase_number_exists: 409,
  /** A registered or issued document is never edited or deleted: correct it with a credit or debit note. */
  document_final: 409,
  /** The related document is not one this document may point at (details.why). */
  related_document_invalid: 409,
  /** The delivery note is already billed by another invoice (details.document). */
  delivery_note_already_invoiced: 409,
  /** Issue 35: a PDF, an e-mail or a reception asked of a purchase that is not a purchase order. */
  not_a_purchase_order: 409,
  /** Only a registered purchase order is sent or received (register the draft first). */
  purchase_order_draft: 409,
  /** The provider has no e-mail address to send the order to (details.provider). */
  provider_without_email: 409,
  /** Every line of the order is already received. */
  nothing_to_receive: 409,
  /** A line receives more than its order line still has pending (details.line: description, pending, quantity). */
  order_over_received: 409,
  /** A received line names a line that is not of the order the document receives (details.sourceLineId). */
  order_line_invalid: 409,
  /** The provider is deactivated: it gets no new documents (details.provider). */
  provider_inactive: 409,
  /** An allocation above what the document still owes or what the payment has left (details). */
  payment_over_allocation: 409,
  /** The payment and the document are in different currencies. */
  currency_mismatch: 409,
  /** Issue 35: documents and money are in the clinic's currency only (details.currency, details.clinicCurrency). */
  currency_not_clinic: 409,
  /** The clinic's currency cannot change once it has documents or payments. */
  currency_in_use: 409,
  /** A sale cannot be issued with a date before the last one issued on its series (details.lastDate). */
  sale_date_before_last: 409,
  payment_already_reversed: 409,
  payment_already_paid: 409,
  /** The same Idempotency-Key was sent with a different request. */
  idempotency_key_reused: 409,
  /** A create that moves money needs an Idempotency-Key header. */
  idempotency_key_required: 400,
  /** The logo is not a PNG or JPEG image, or is too big (details.maxBytes). */
  logo_invalid: 415,

  // Sales and collections (issue 18)
  customer_not_found: 404,
  error_get_customer: 500,
  error_create_customer: 500,
  error_update_customer: 500,
  /** Another company or insurer of the clinic has the tax id (details.customer: id and name). */
  customer_tax_id_exists: 409,
  /** The customer is deactivated: it gets no new documents (details.customer). */
  customer_inactive: 409,
  /** Another treatment of the price list has the code (details.treatment). */
  treatment_code_exists: 409,
  /** The budget has no accepted answer yet (details.decision when rejected). */
  budget_not_accepted: 409,
  /** The budget already has its answer (details.decision). */
  budget_already_decided: 409,
  /** Only an issued budget is answered, converted or linked (details.status). */
  budget_not_issued: 409,
  /** An attendance's fee or line (or a budget line) is already invoiced (details.document). */
  already_invoiced: 409,
  /** A sale line names a budget line that is not one of the customer's budgets (details.sourceLineId). */
  budget_line_not_found: 404,
  /** An invoiced attendance line is never changed or dropped (details.lineId). */
  attendance_line_invoiced: 409,
  /** Nothing of the attendances (or the budget) is left to invoice. */
  nothing_to_invoice: 409,
  /** The point of sale is deactivated or unknown (details.pointOfSale). */
  point_of_sale_inactive: 409,
  /**
   * E-invoicing (issue 39). The certificate uploaded cannot be used (details.reason: unreadable,
   * password, key_mismatch, expired, not_yet_valid, tax_id_mismatch).
   */
  einvoice_certificate_invalid: 400,
  /** The regime needs a certificate first (ARCA, Verifactu). */
  einvoice_certificate_required: 409,
  /** The regime does not fit the clinic's fiscal data (details.reason: country, tax_id). */
  einvoice_regime_invalid: 409,
  /** A Factura A (or its notes) needs the customer's valid CUIT; a Verifactu full invoice, a NIF. */
  einvoice_customer_tax_id_required: 409,
  /** A line's VAT rate is not one the authority takes (details.vatRate). */
  einvoice_vat_rate_invalid: 409,
  /** Only a rejected submission, or one without an answer, is sent again. */
  einvoice_not_retryable: 409,
  /** The test connection's answers (never thrown): the authority did not answer, or refused the certificate. */
  einvoice_authority_unreachable: 502,
  einvoice_authority_refused: 502,
  /** The document type is not one a sale may be, or this action does not apply to it (details.documentType). */
  document_type_invalid: 409,
  /** The customer has no e-mail address to send the document to. */
  customer_without_email: 409,
  collection_already_reversed: 409,
  collection_already_paid: 409,
  /** The electronic-invoicing authority refused the document (details.reason); it stays issued, to be retried. */
  einvoice_rejected: 502,
  /** A document or a collection names the customer: deactivate it instead. */
  customer_has_documents: 409,
  /** A patient's customer row is never deleted (it follows the patient). */
  customer_is_patient: 409,
  error_delete_customer: 500,

  // System settings (issue 19)
  error_get_system_settings: 500,
  error_update_system_settings: 500,
  /** A sale's next number must be above the last one issued of its point of sale and type (details.lastIssued). */
  next_number_not_above_issued: 409,

  // Dashboard (issue 19)
  error_get_dashboard: 500,

  // Reports (issue 19)
  error_get_report: 500,
  error_export_report: 500,
  report_export_not_found: 404,
  /** The export's file is not written yet, or its job failed (details.state). */
  report_export_not_ready: 409,
  /** The export's file was removed after the installation's REPORT_EXPORT_KEEP_DAYS (details.keepDays): export it again. */
  report_export_expired: 410,
  /** Too many rows for a direct answer or for a PDF (details.rows, details.maxRows): export it as a job or narrow the period. */
  report_export_too_large: 409,

  // A patient's record in FHIR R4 and the right of access (issue 42)
  error_export_fhir: 500,
  error_import_fhir: 500,
  /** Not a FHIR R4 Bundle of type collection with one Patient (details.problems: the first few, each a path and a reason). */
  fhir_bundle_invalid: 422,
  error_export_access: 500,
  access_export_not_found: 404,
  /** The archive is not written yet, or its job failed (details.state). */
  access_export_not_ready: 409,
  /** The archive was removed after the installation's REPORT_EXPORT_KEEP_DAYS (details.keepDays): ask for it again. */
  access_export_expired: 410,
  // Importing data (issue 42)
  error_import: 500,
  import_not_found: 404,
  /** The file is larger than the import accepts (details.maxMb). */
  import_file_too_large: 413,
  /** More rows than one import takes (details.maxRows). */
  import_too_many_rows: 422,
  /** Neither a CSV nor an XLSX that can be read (no header, a broken spreadsheet, a cut-off upload). */
  import_file_unreadable: 400,
  /** A mapping without the external id or a required field, or naming a column the file lacks (details.fields). */
  import_mapping_invalid: 400,
  /** The step asked is not the run's next one (details.state): check it before importing, once. */
  import_wrong_state: 409,

  // My account (issue 19)
  /** The clinic's contract is overdue past its grace period: it reads and exports, but writes nothing until renewed. */
  account_read_only: 403,
  account_movement_not_found: 404,
  /** Only a pending renewal order can be marked paid (details.status, details.kind). */
  account_movement_not_pending: 409,
  /** The installation has no such plan, or no plans at all (self-hosted). */
  plan_not_available: 409,
  /** A renewal order already waits for its payment (details.movement). */
  account_renewal_pending: 409,
  /** The clinic's plan holds no more files (details.limitMb, details.usedMb): renew to a larger plan or delete files. */
  plan_storage_full: 409,
  /** The clinic's plan has no room for another active staff user (details.limit). */
  plan_users_full: 409,
  error_get_account: 500,
  error_update_account: 500,
  error_renew_account: 500,

  // Cash registers (cajas, issue 40)
  cash_register_not_found: 404,
  cash_session_not_found: 404,
  /** Another live register of the clinic has this name (details.field). */
  cash_register_exists: 409,
  /** The register already has an open session (details.session): close it first. */
  cash_session_already_open: 409,
  /** The register has no open session (a manual movement, a reversal of money taken at it, a cash collection when the setting asks for one). */
  cash_session_not_open: 409,
  /** The session is closed: it, its movements and its count never change. */
  cash_session_already_closed: 409,
  /** A closed periodontal exam never changes and is never discarded (issue 41). */
  perio_exam_already_closed: 409,
  /** The register is inactive: no session opens at it. */
  cash_register_inactive: 409,
  /** A register with an open session cannot be deactivated or deleted. */
  cash_register_in_use: 409,
  error_get_cash_register: 500,
  error_create_cash_register: 500,
  error_update_cash_register: 500,
  error_delete_cash_register: 500,
  error_get_cash_session: 500,
  error_open_cash_session: 500,
  error_close_cash_session: 500,
  error_create_cash_movement: 500,
  error_update_cash_settings: 500,
  // Third-party payers (issue 40)
  payer_not_found: 404,
  payer_plan_not_found: 404,
  affiliation_not_found: 404,
  payer_presentation_not_found: 404,
  payer_split_line_not_found: 404,
  /** The patient has no primary affiliation valid on the invoice's date (or its payer or plan is inactive). */
  patient_not_affiliated: 409,
  /** A line whose coverage rule requires the payer's authorization number has none (details.sourceIds). */
  payer_authorization_required: 409,
  /** The presentation is not in a status that allows this step (details.status). */
  payer_presentation_status: 409,
  /** No invoiced payer line of the payer in that month is left to present. */
  payer_presentation_empty: 409,
  /** The line was already rejected (details.rejection). */
  payer_line_already_rejected: 409,
  /** A rejection above what the payer was billed for the line (details.payerAmount). */
  payer_rejection_too_big: 409,
  /** The plan is not one of the payer's. */
  payer_plan_mismatch: 409,
  /**
   * A plan with live affiliations or with covered lines not yet presented cannot be deleted
   * (details.affiliations, details.pendingLines): end or move those affiliations first.
   */
  payer_plan_in_use: 409,
  error_get_payer: 500,
  error_create_payer: 500,
  error_update_payer: 500,
  error_delete_payer: 500,
  error_get_payer_plan: 500,
  error_create_payer_plan: 500,
  error_update_payer_plan: 500,
  error_delete_payer_plan: 500,
  error_get_affiliation: 500,
  error_create_affiliation: 500,
  error_update_affiliation: 500,
  error_delete_affiliation: 500,
  error_invoice_payer: 500,
  error_get_payer_presentation: 500,
  error_update_payer_presentation: 500,
  // Professional settlements (issue 40)
  settlement_rule_not_found: 404,
  settlement_not_found: 404,
  /** The professional is not a staff user of the clinic (or, for a new rule, not an active one). */
  settlement_professional_not_found: 404,
  /** A rule of the same professional, scope, target and validity date exists (details.rule). */
  settlement_rule_exists: 409,
  /** A settlement of the professional already covers part of the period (details.settlement). */
  settlement_period_settled: 409,
  /** What the period settles changed since the preview (details.total): preview it again. */
  settlement_preview_stale: 409,
  /** The period has nothing to settle. */
  settlement_empty: 409,
  /** The period's total is below zero (the adjustments exceed it): it carries to the next period. */
  settlement_negative: 409,
  error_get_settlement: 500,
  error_create_settlement: 500,
  error_get_settlement_rule: 500,
  error_create_settlement_rule: 500,
  error_update_settlement_rule: 500,
  error_delete_settlement_rule: 500,
} as const;

export type ErrorCode = keyof typeof errorStatuses;

/**
 * The codes of an unexpected failure of one action (HTTP 500, e.g. `error_create_prescription`):
 * a route names its own, so the toast says what could not be done instead of a bare system error.
 */
export type FailureCode = { [Code in ErrorCode]: (typeof errorStatuses)[Code] extends 500 ? Code : never }[ErrorCode];

/** Success codes a mutation answers with, for the confirmation toast. */
const successEntities = [
  'patient',
  'attendance',
  'diagnosis',
  'laboratory',
  'prescription',
  'health_certificate',
  'authorization',
  'authorization_template',
  'file',
  'odontogram',
  'perio_exam',
  'medication',
  'supply',
  'provider',
  'purchase',
  'sale',
  'payment',
  'collection',
  'appointment',
  'treatment',
  'chair',
  'schedule_exception',
  'user',
  'point_of_sale',
  'customer',
  'waiting_list_entry',
  'cash_register',
  // Issue 40: third-party payers.
  'payer',
  'payer_plan',
  'affiliation',
  'settlement_rule',
  // Issue 41
  'treatment_plan',
] as const;

type EntitySuccessCode = `${(typeof successEntities)[number]}_${'created' | 'updated' | 'deleted'}`;

function entitySuccessCodes(): EntitySuccessCode[] {
  return successEntities.flatMap((entity) =>
    (['created', 'updated', 'deleted'] as const).map((verb): EntitySuccessCode => `${entity}_${verb}`),
  );
}

/** What an appointment's steps answer (its answers' codes besides created and updated). */
export const appointmentStepCodes = [
  'appointment_rescheduled',
  'appointment_cancelled',
  'appointment_confirmed',
  'appointment_unconfirmed',
  'appointment_arrived',
  'appointment_restored',
  'appointment_completed',
] as const;

export const successCodes = [
  ...entitySuccessCodes(),
  'login_success',
  'logout_success',
  'account_created',
  'account_activated',
  'activation_link_sent',
  'password_reset_link_sent',
  'password_reset',
  'password_changed',
  'profile_updated',
  'session_unlocked',
  'user_invited',
  'screen_locked',
  'authorization_signed',
  'authorization_unsigned',
  'system_setting_updated',
  'entity_schedule_updated',
  'entity_document_updated',
  'stock_adjusted',
  'inventory_imported',
  'attendance_addendum_created',
  'files_uploaded',
  'file_removed',
  'odontogram_entries_saved',
  'odontogram_entry_voided',
  'treatment_plan_presented',
  'treatment_plan_accepted',
  'treatment_plan_rejected',
  'treatment_plan_cancelled',
  'treatment_plan_session_booked',
  'perio_exam_closed',
  'health_certificate_voided',
  ...appointmentStepCodes,
  'reminder_settings_updated',
  'online_booking_settings_updated',
  'online_booking_held',
  'appointment_booked_online',
  /** Settings saved with a new reminder lead or on/off: it applies to appointments booked or moved from now on. */
  'reminders_apply_to_new_bookings',
  'fiscal_data_updated',
  'logo_updated',
  'logo_removed',
  'purchase_registered',
  'purchase_received',
  'purchase_order_sent',
  'payment_allocated',
  'payment_reversed',
  'payment_marked_paid',
  'sale_issued',
  'sale_sent',
  'budget_accepted',
  'budget_rejected',
  'collection_allocated',
  'collection_reversed',
  'collection_marked_paid',
  'statement_sent',
  'treatments_imported',
  'account_billing_updated',
  'account_renewal_ordered',
  'report_export_queued',
  'patient_imported',
  'access_export_queued',
  /** Asked again while the patient's archive is being written: the answer is that one. */
  'access_export_in_progress',
  'import_uploaded',
  'import_check_queued',
  'import_queued',
  'clinic_switched',
  'portal_access_invited',
  'portal_access_revoked',
  'portal_access_requested',
  'portal_password_set',

  'signing_request_sent',
  'signing_request_cancelled',
  'document_signed',
  'recall_attempt_logged',
  'recall_booked',
  'recall_closed',
  'payment_plan_created',
  'payment_plan_cancelled',
  'lab_case_created',
  'lab_case_updated',
  'lab_case_sent',
  'lab_case_received',
  'lab_case_checked',
  'lab_case_returned',
  'lab_case_seated',
  'lab_case_cancelled',
  'waiting_list_offer_sent',
  'messaging_settings_updated',
  'message_template_updated',
  'consent_recorded',
  'inbox_answered',
  'inbox_closed',
  'opted_out',
  'waiting_list_offer_accepted',
  'einvoice_settings_updated',
  'einvoice_certificate_updated',
  'einvoice_certificate_removed',
  'einvoice_retry_queued',
  'einvoice_connection_ok',
  'einvoice_connection_local',
  'cash_session_opened',
  'cash_session_closed',
  'cash_movement_created',
  'cash_settings_updated',
  // Issue 40: third-party payers.
  'payer_invoices_issued',
  'payer_presentation_created',
  'payer_presentation_sent',
  'payer_presentation_accepted',
  'payer_presentation_paid',
  'payer_rejection_recorded',
  'settlement_created',
  // Issue 42: webhooks.
  'webhook_created',
  'webhook_updated',
  'webhook_deleted',
  'webhook_secret_rotated',
  'webhook_resend_queued',
  // Issue 42: API tokens and the clinic's full export.
  'api_token_created',
  'api_token_revoked',
  'clinic_export_queued',
] as const;

export type SuccessCode = (typeof successCodes)[number];
export type MessageCode = ErrorCode | SuccessCode;

export const errorCodes = Object.keys(errorStatuses) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatuses, value);
}

export function statusOf(code: ErrorCode): number {
  return errorStatuses[code];
}

/**
 * One invalid field of a request: where it is and which message code explains it; for a text's
 * length or a number's bounds, the limit it broke (`max`, `min`), so the message can say it.
 */
export interface FieldError {
  path: string;
  code: string;
  max?: number;
  min?: number;
}

/** The body of every error answer. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: { fields?: FieldError[] } & Record<string, unknown>;
}
