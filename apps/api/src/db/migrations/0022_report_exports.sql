CREATE TABLE "report_exports" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"report_id" text NOT NULL,
	"format" text NOT NULL,
	"params" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"rows_written" integer DEFAULT 0 NOT NULL,
	"total_rows" integer,
	"file_name" text NOT NULL,
	"spool_bytes" bigint DEFAULT 0 NOT NULL,
	"storage_key" text,
	"byte_size" integer,
	"last_error" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "report_exports_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "report_exports_progress" CHECK ("report_exports"."progress" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "report_exports" ADD CONSTRAINT "report_exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_exports" ADD CONSTRAINT "report_exports_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_exports_recent_idx" ON "report_exports" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_recent_idx" ON "stock_movements" USING btree ("account_id","created_at","id");--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these): row-level security, forced, the clinic's policy and the app roles' grants.
SELECT enable_tenant_rls('report_exports');
