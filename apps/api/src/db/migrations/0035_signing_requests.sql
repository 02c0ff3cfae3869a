CREATE TABLE "signing_requests" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"authorization_id" uuid,
	"sale_id" uuid,
	"patient_id" uuid NOT NULL,
	"language" text NOT NULL,
	"sent_to" text NOT NULL,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"sent_by" uuid NOT NULL,
	"signed_at" timestamp with time zone,
	"signer_ip" text,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signing_requests_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "signing_requests_document" CHECK (("signing_requests"."kind" = 'authorization' and "signing_requests"."authorization_id" is not null and "signing_requests"."sale_id" is null) or ("signing_requests"."kind" = 'budget' and "signing_requests"."sale_id" is not null and "signing_requests"."authorization_id" is null)),
	CONSTRAINT "signing_requests_status" CHECK ("signing_requests"."status" in ('pending', 'signed', 'expired', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_account_id_authorization_id_treatment_authorizations_account_id_id_fk" FOREIGN KEY ("account_id","authorization_id") REFERENCES "public"."treatment_authorizations"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_account_id_sale_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","sale_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_account_id_sent_by_users_account_id_id_fk" FOREIGN KEY ("account_id","sent_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_account_id_cancelled_by_users_account_id_id_fk" FOREIGN KEY ("account_id","cancelled_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signing_requests_token_hash_unique" ON "signing_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "signing_requests_authorization_idx" ON "signing_requests" USING btree ("account_id","authorization_id","sent_at");--> statement-breakpoint
CREATE INDEX "signing_requests_sale_idx" ON "signing_requests" USING btree ("account_id","sale_id","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_requests_pending_authorization_unique" ON "signing_requests" USING btree ("account_id","authorization_id") WHERE "signing_requests"."status" = 'pending' and "signing_requests"."authorization_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "signing_requests_pending_sale_unique" ON "signing_requests" USING btree ("account_id","sale_id") WHERE "signing_requests"."status" = 'pending' and "signing_requests"."sale_id" is not null;--> statement-breakpoint
-- hand-written: row-level security, forced, the clinic's policy and the app roles' grants.
SELECT enable_tenant_rls('signing_requests');--> statement-breakpoint
-- A request is a fact: it changes state, never disappears.
REVOKE DELETE, TRUNCATE ON signing_requests FROM odontia_app, odontia_system;
