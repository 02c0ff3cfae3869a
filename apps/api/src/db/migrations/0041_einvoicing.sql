CREATE TABLE "einvoice_series" (
	"account_id" uuid NOT NULL,
	"series" text NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	"authority_last_number" integer,
	"difference" jsonb,
	"last_link" jsonb,
	"lease_job" uuid,
	"lease_until" timestamp with time zone,
	"next_send_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	CONSTRAINT "einvoice_series_account_id_series_pk" PRIMARY KEY("account_id","series")
);
--> statement-breakpoint
CREATE TABLE "einvoice_settings" (
	"account_id" uuid NOT NULL,
	"regime" text DEFAULT 'local' NOT NULL,
	"environment" text DEFAULT 'homologation' NOT NULL,
	"certificate_sealed" text,
	"private_key_sealed" text,
	"certificate_info" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "einvoice_settings_account_id_pk" PRIMARY KEY("account_id")
);
--> statement-breakpoint
CREATE TABLE "einvoice_tickets" (
	"account_id" uuid NOT NULL,
	"service" text NOT NULL,
	"ticket_sealed" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "einvoice_tickets_account_id_service_pk" PRIMARY KEY("account_id","service")
);
--> statement-breakpoint
DROP INDEX "einvoice_submissions_pending_idx";--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "environment" text;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "series" text;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "queue_order" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "einvoice_submissions_queue_order_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "letter" text;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "voucher_type" integer;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "authority_point_of_sale" integer;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "fiscal_number" integer;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "authorization_due_date" date;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "qr_url" text;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "record_xml" text;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "record_hash" text;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "messages" jsonb;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "points_of_sale" ADD COLUMN "authority_number" integer;--> statement-breakpoint
ALTER TABLE "einvoice_series" ADD CONSTRAINT "einvoice_series_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoice_settings" ADD CONSTRAINT "einvoice_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoice_settings" ADD CONSTRAINT "einvoice_settings_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoice_tickets" ADD CONSTRAINT "einvoice_tickets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "einvoice_submissions_open_idx" ON "einvoice_submissions" USING btree ("account_id","series","queue_order") WHERE "einvoice_submissions"."status" in ('pending', 'sending', 'contingency', 'rejected');--> statement-breakpoint
CREATE UNIQUE INDEX "einvoice_submissions_fiscal_number_unique" ON "einvoice_submissions" USING btree ("account_id","series","fiscal_number") WHERE "einvoice_submissions"."fiscal_number" is not null;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD CONSTRAINT "einvoice_submissions_status" CHECK ("einvoice_submissions"."status" in ('local', 'pending', 'sending', 'accepted', 'accepted_with_errors', 'rejected', 'contingency', 'not_sent'));--> statement-breakpoint
ALTER TABLE "points_of_sale" ADD CONSTRAINT "points_of_sale_authority_number" CHECK ("points_of_sale"."authority_number" is null or "points_of_sale"."authority_number" between 1 and 99998);--> statement-breakpoint
SELECT enable_tenant_rls(t) FROM unnest(ARRAY['einvoice_settings', 'einvoice_series', 'einvoice_tickets']) AS t;
--> statement-breakpoint
-- The local adapter's "accepted · LOCAL-…" was no authority's answer: such documents are local, without fiscal validity.
UPDATE "einvoice_submissions" SET "status" = 'local', "authorization_code" = NULL, "authorized_at" = NULL WHERE "adapter" = 'local';
