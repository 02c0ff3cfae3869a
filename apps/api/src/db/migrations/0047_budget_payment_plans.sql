CREATE TABLE "payment_plan_collections" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_plan_collections_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
ALTER TABLE "payer_split_lines" ALTER COLUMN "attendance_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_plan_collections" ADD CONSTRAINT "payment_plan_collections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plan_collections" ADD CONSTRAINT "payment_plan_collections_account_id_plan_id_payment_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."payment_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plan_collections" ADD CONSTRAINT "payment_plan_collections_account_id_payment_id_payments_account_id_id_fk" FOREIGN KEY ("account_id","payment_id") REFERENCES "public"."payments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_plan_collections_payment_unique" ON "payment_plan_collections" USING btree ("account_id","payment_id");--> statement-breakpoint
CREATE INDEX "payment_plan_collections_plan_idx" ON "payment_plan_collections" USING btree ("account_id","plan_id","created_at");--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_source" CHECK (("payer_split_lines"."source_kind" = 'budget_line') = ("payer_split_lines"."attendance_id" is null));--> statement-breakpoint
-- hand-written: collections against a budget's payment plan (issue 40) — row-level security, final rows.
SELECT enable_tenant_rls('payment_plan_collections');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON payment_plan_collections FROM odontia_app, odontia_system;
