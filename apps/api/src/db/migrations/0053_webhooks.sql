CREATE TABLE "webhook_attempts" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_code" integer,
	"duration_ms" integer NOT NULL,
	"ok" boolean NOT NULL,
	"error" text,
	"response_excerpt" text,
	"resent" boolean DEFAULT false NOT NULL,
	CONSTRAINT "webhook_attempts_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "webhook_attempts_texts" CHECK (char_length(coalesce("webhook_attempts"."error", '')) <= 500 and char_length(coalesce("webhook_attempts"."response_excerpt", '')) <= 500)
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "webhook_deliveries_state" CHECK ("webhook_deliveries"."state" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"description" text,
	"secret_sealed" text NOT NULL,
	"secret_hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "webhook_subscriptions_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "webhook_subscriptions_texts" CHECK (char_length("webhook_subscriptions"."url") <= 2000 and char_length(coalesce("webhook_subscriptions"."description", '')) <= 500),
	CONSTRAINT "webhook_subscriptions_events" CHECK (cardinality("webhook_subscriptions"."events") between 1 and 7 and "webhook_subscriptions"."events" <@ array['appointment.booked', 'appointment.moved', 'appointment.cancelled', 'patient.created', 'patient.updated', 'invoice.issued', 'collection.recorded']::text[])
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_account_id_delivery_id_webhook_deliveries_account_id_id_fk" FOREIGN KEY ("account_id","delivery_id") REFERENCES "public"."webhook_deliveries"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_account_id_subscription_id_webhook_subscriptions_account_id_id_fk" FOREIGN KEY ("account_id","subscription_id") REFERENCES "public"."webhook_subscriptions"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_account_id_subscription_id_webhook_subscriptions_account_id_id_fk" FOREIGN KEY ("account_id","subscription_id") REFERENCES "public"."webhook_subscriptions"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_account_id_event_id_webhook_events_account_id_id_fk" FOREIGN KEY ("account_id","event_id") REFERENCES "public"."webhook_events"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_log_idx" ON "webhook_attempts" USING btree ("account_id","subscription_id","attempted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("account_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_list_idx" ON "webhook_subscriptions" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "webhook_subscriptions"."deleted_at" is null;--> statement-breakpoint
-- hand-written: row-level security; a subscription is removed softly (its log is kept), events
-- and attempts are never changed nor deleted.
SELECT enable_tenant_rls('webhook_subscriptions');
--> statement-breakpoint
SELECT enable_tenant_rls('webhook_events');
--> statement-breakpoint
SELECT enable_tenant_rls('webhook_deliveries');
--> statement-breakpoint
SELECT enable_tenant_rls('webhook_attempts');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON webhook_subscriptions FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON webhook_deliveries FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON webhook_events FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON webhook_attempts FROM odontia_app, odontia_system;
