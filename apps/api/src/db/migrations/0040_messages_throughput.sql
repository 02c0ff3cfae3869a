CREATE INDEX "jobs_clinic_due_idx" ON "jobs" USING btree ("account_id","run_at") WHERE "jobs"."state" in ('queued', 'running');--> statement-breakpoint
-- A message row is updated three or four times after it is written (sending, sent, delivered, read):
-- room left in each page lets those updates stay in the page without touching the table's seven
-- indexes (heap-only tuples), for the delivery reports' thousands a minute (issue 38).
ALTER TABLE "messages" SET (fillfactor = 80);
--> statement-breakpoint
-- The appointments' day figures (migration 0020) read status, cancel_reason, cancelled_at,
-- starts_at, professional_id and deleted_at; an update that changes none of them (a reminder sent,
-- a note, a confirmation) makes no difference to append, but the row trigger still ran its dynamic
-- SQL twice per row: 33 ms for a batch of 25 reminders marked sent (issue 38). The update trigger
-- now fires only when one of those columns changes; what it appends is the same.
DROP TRIGGER appointments_day_figures ON appointments;--> statement-breakpoint
CREATE TRIGGER appointments_day_figures AFTER INSERT OR DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION odontia_append_figure_changes('odontia_appointment_figures');--> statement-breakpoint
CREATE TRIGGER appointments_day_figures_update AFTER UPDATE ON appointments
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status
    OR OLD.cancel_reason IS DISTINCT FROM NEW.cancel_reason
    OR OLD.cancelled_at IS DISTINCT FROM NEW.cancelled_at
    OR OLD.starts_at IS DISTINCT FROM NEW.starts_at
    OR OLD.professional_id IS DISTINCT FROM NEW.professional_id
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.account_id IS DISTINCT FROM NEW.account_id
  )
  EXECUTE FUNCTION odontia_append_figure_changes('odontia_appointment_figures');
