CREATE TABLE "import_links" (
	"account_id" uuid NOT NULL,
	"source_key" text NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	"record_id" uuid NOT NULL,
	"row_hash" text NOT NULL,
	"run_id" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_links_account_id_source_key_kind_external_id_pk" PRIMARY KEY("account_id","source_key","kind","external_id")
);
--> statement-breakpoint
CREATE TABLE "import_mappings" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"source_key" text NOT NULL,
	"kind" text NOT NULL,
	"columns" jsonb NOT NULL,
	"updated_by" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_mappings_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"account_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"phase" text NOT NULL,
	"line" integer NOT NULL,
	"external_id" text,
	"outcome" text NOT NULL,
	"record_id" uuid,
	"label" text,
	"reasons" jsonb NOT NULL,
	"cells" jsonb,
	CONSTRAINT "import_rows_account_id_run_id_phase_line_pk" PRIMARY KEY("account_id","run_id","phase","line")
);
--> statement-breakpoint
CREATE TABLE "import_runs" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"source_key" text NOT NULL,
	"file_name" text NOT NULL,
	"byte_size" bigint NOT NULL,
	"format" text NOT NULL,
	"storage_key" text,
	"detected_encoding" text NOT NULL,
	"encoding" text NOT NULL,
	"delimiter" text DEFAULT ',' NOT NULL,
	"mapping" jsonb,
	"state" text DEFAULT 'uploaded' NOT NULL,
	"phase" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"total_rows" integer,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "import_runs_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "import_runs_progress" CHECK ("import_runs"."progress" between 0 and 100),
	CONSTRAINT "import_runs_source" CHECK (char_length("import_runs"."source") between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "import_links" ADD CONSTRAINT "import_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "import_mappings_source_idx" ON "import_mappings" USING btree ("account_id","source_key","kind");--> statement-breakpoint
CREATE INDEX "import_rows_outcome_idx" ON "import_rows" USING btree ("account_id","run_id","phase","outcome","line");--> statement-breakpoint
CREATE INDEX "import_rows_external_idx" ON "import_rows" USING btree ("account_id","run_id","phase","external_id");--> statement-breakpoint
CREATE INDEX "import_runs_recent_idx" ON "import_runs" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- Hand-written (issue 42): every import table is a clinic's, under row-level security.
SELECT enable_tenant_rls('import_runs');
--> statement-breakpoint
SELECT enable_tenant_rls('import_mappings');
--> statement-breakpoint
SELECT enable_tenant_rls('import_links');
--> statement-breakpoint
SELECT enable_tenant_rls('import_rows');
