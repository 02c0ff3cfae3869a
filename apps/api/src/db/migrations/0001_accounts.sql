CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"clinic_name" text NOT NULL,
	"contact" text NOT NULL,
	"plan" text DEFAULT 'trial' NOT NULL,
	"plan_ends_at" timestamp with time zone,
	"promotional_code" text,
	"system_currency" text NOT NULL,
	"lock_after_minutes" integer DEFAULT 15 NOT NULL,
	"time_zone" text NOT NULL,
	"activated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"user_id" uuid,
	"patient_id" uuid,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" uuid,
	"before" jsonb,
	"after" jsonb,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prev_hash" text,
	"hash" text NOT NULL,
	CONSTRAINT "audit_events_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_tokens_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"remember" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"ip" text,
	"user_agent" text,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"complete_name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"level" text NOT NULL,
	"system_language" text NOT NULL,
	"date_format" text NOT NULL,
	"system_currency" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"activated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "users_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_account_id_user_id_users_account_id_id_fk" FOREIGN KEY ("account_id","user_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_user_id_users_account_id_id_fk" FOREIGN KEY ("account_id","user_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_chain_unique" ON "audit_events" USING btree ("account_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_tokens_token_hash_unique" ON "auth_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_unique" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("account_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint

-- Row-level security (ARCHITECTURE §4). Every table with account_id: the shared helper.
SELECT enable_tenant_rls('users');
--> statement-breakpoint
SELECT enable_tenant_rls('sessions');
--> statement-breakpoint
SELECT enable_tenant_rls('auth_tokens');
--> statement-breakpoint
SELECT enable_tenant_rls('audit_events');
--> statement-breakpoint

-- The clinic row itself: its id is the tenant key, so a clinic sees and updates only its own
-- row, no context sees none, and only the system context (sign-up) creates clinics.
ALTER TABLE accounts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE accounts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON accounts TO odontia_app
  USING (id = current_account_id()) WITH CHECK (id = current_account_id());
--> statement-breakpoint
CREATE POLICY system_access ON accounts TO odontia_system USING (true) WITH CHECK (true);
--> statement-breakpoint
REVOKE INSERT, DELETE ON accounts FROM odontia_app;
--> statement-breakpoint

-- The audit trail is append-only for the application.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_events FROM odontia_app, odontia_system;
