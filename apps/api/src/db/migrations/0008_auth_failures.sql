CREATE TABLE "auth_failures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"failed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "auth_failures_key_idx" ON "auth_failures" USING btree ("key_hash","failed_at");--> statement-breakpoint
CREATE INDEX "auth_failures_failed_at_idx" ON "auth_failures" USING btree ("failed_at");--> statement-breakpoint
-- The auth throttle's counters (issue 14): shared by every API process, not a clinic's table (no
-- account_id, no row-level security). Only the system context of the auth flows uses it.
REVOKE ALL ON "auth_failures" FROM odontia_app;
