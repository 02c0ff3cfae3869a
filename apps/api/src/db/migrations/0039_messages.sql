CREATE TABLE "inbound_messages" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"channel" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"from_address" text NOT NULL,
	"body" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"patient_id" uuid,
	"appointment_id" uuid,
	"message_id" uuid,
	"intent" text NOT NULL,
	"outcome" text NOT NULL,
	"handled_at" timestamp with time zone,
	"handled_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "inbound_messages_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "inbound_messages_channel" CHECK ("inbound_messages"."channel" in ('sms', 'whatsapp')),
	CONSTRAINT "inbound_messages_intent" CHECK ("inbound_messages"."intent" in ('confirm', 'cancel', 'stop', 'start', 'unknown')),
	CONSTRAINT "inbound_messages_outcome" CHECK ("inbound_messages"."outcome" in ('applied', 'already', 'too_late', 'no_appointment', 'unknown_sender', 'inbox')),
	CONSTRAINT "inbound_messages_texts" CHECK (char_length("inbound_messages"."body") <= 4000 and char_length("inbound_messages"."from_address") <= 40)
);
--> statement-breakpoint
CREATE TABLE "message_status_events" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"event_key" text NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_status_events_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "message_templates" (
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"language" text NOT NULL,
	"body" text NOT NULL,
	"whatsapp_template" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "message_templates_account_id_kind_channel_language_pk" PRIMARY KEY("account_id","kind","channel","language"),
	CONSTRAINT "message_templates_kind" CHECK ("message_templates"."kind" in ('appointment_reminder', 'waiting_list_offer', 'recall')),
	CONSTRAINT "message_templates_channel" CHECK ("message_templates"."channel" in ('sms', 'whatsapp')),
	CONSTRAINT "message_templates_language" CHECK ("message_templates"."language" in ('es', 'en', 'fr', 'pt')),
	CONSTRAINT "message_templates_texts" CHECK (char_length("message_templates"."body") <= 1000 and char_length("message_templates"."whatsapp_template") <= 512)
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid,
	"appointment_id" uuid,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"to_address" text NOT NULL,
	"language" text NOT NULL,
	"body" text NOT NULL,
	"template_name" text,
	"template_params" jsonb,
	"status" text DEFAULT 'queued' NOT NULL,
	"provider_message_id" text,
	"error_code" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sending_since" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"opt_out_token_hash" text,
	"in_reply_to" uuid,
	CONSTRAINT "messages_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "messages_channel" CHECK ("messages"."channel" in ('email', 'sms', 'whatsapp')),
	CONSTRAINT "messages_kind" CHECK ("messages"."kind" in ('appointment_reminder', 'waiting_list_offer', 'recall', 'answer', 'opt_out_confirmation')),
	CONSTRAINT "messages_status" CHECK ("messages"."status" in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled')),
	CONSTRAINT "messages_texts" CHECK (char_length("messages"."to_address") <= 320 and char_length("messages"."body") <= 4000 and char_length("messages"."error") <= 500)
);
--> statement-breakpoint
CREATE TABLE "messaging_channels" (
	"account_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"api_url" text NOT NULL,
	"account_ref" text NOT NULL,
	"sender" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"webhook_secret_sealed" text,
	"webhook_key" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "messaging_channels_account_id_channel_pk" PRIMARY KEY("account_id","channel"),
	CONSTRAINT "messaging_channels_channel" CHECK ("messaging_channels"."channel" in ('sms', 'whatsapp')),
	CONSTRAINT "messaging_channels_texts" CHECK (char_length("messaging_channels"."api_url") <= 300 and char_length("messaging_channels"."account_ref") <= 100 and char_length("messaging_channels"."sender") <= 20)
);
--> statement-breakpoint
CREATE TABLE "patient_channel_consents" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"granted" boolean NOT NULL,
	"source" text NOT NULL,
	"note" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_by" uuid,
	"inbound_message_id" uuid,
	CONSTRAINT "patient_channel_consents_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "patient_channel_consents_channel" CHECK ("patient_channel_consents"."channel" in ('email', 'sms', 'whatsapp')),
	CONSTRAINT "patient_channel_consents_source" CHECK ("patient_channel_consents"."source" in ('staff', 'portal', 'reply', 'link', 'import')),
	CONSTRAINT "patient_channel_consents_note" CHECK (char_length("patient_channel_consents"."note") <= 500)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "reminder_channels" text[] DEFAULT '{email}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "quiet_hours_start" integer DEFAULT 1260;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "quiet_hours_end" integer DEFAULT 540;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "deceased_on" date;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_account_id_message_id_messages_account_id_id_fk" FOREIGN KEY ("account_id","message_id") REFERENCES "public"."messages"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_account_id_handled_by_users_account_id_id_fk" FOREIGN KEY ("account_id","handled_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_status_events" ADD CONSTRAINT "message_status_events_account_id_message_id_messages_account_id_id_fk" FOREIGN KEY ("account_id","message_id") REFERENCES "public"."messages"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_channels" ADD CONSTRAINT "messaging_channels_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_channels" ADD CONSTRAINT "messaging_channels_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_channel_consents" ADD CONSTRAINT "patient_channel_consents_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_channel_consents" ADD CONSTRAINT "patient_channel_consents_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_channel_consents" ADD CONSTRAINT "patient_channel_consents_account_id_recorded_by_users_account_id_id_fk" FOREIGN KEY ("account_id","recorded_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_provider_id_unique" ON "inbound_messages" USING btree ("account_id","channel","provider_message_id");--> statement-breakpoint
CREATE INDEX "inbound_messages_inbox_idx" ON "inbound_messages" USING btree ("account_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "inbound_messages"."handled_at" is null;--> statement-breakpoint
CREATE INDEX "inbound_messages_recent_idx" ON "inbound_messages" USING btree ("account_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbound_messages_from_idx" ON "inbound_messages" USING btree ("account_id","channel","from_address","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "message_status_events_key_unique" ON "message_status_events" USING btree ("account_id","channel","event_key");--> statement-breakpoint
CREATE INDEX "message_status_events_message_idx" ON "message_status_events" USING btree ("account_id","message_id","received_at");--> statement-breakpoint
CREATE INDEX "messages_patient_idx" ON "messages" USING btree ("account_id","patient_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_appointment_idx" ON "messages" USING btree ("account_id","appointment_id","created_at" DESC NULLS LAST) WHERE "messages"."appointment_id" is not null;--> statement-breakpoint
CREATE INDEX "messages_recent_idx" ON "messages" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_to_idx" ON "messages" USING btree ("account_id","channel","to_address","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "messages_provider_id_unique" ON "messages" USING btree ("account_id","channel","provider_message_id") WHERE "messages"."provider_message_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_opt_out_token_unique" ON "messages" USING btree ("opt_out_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_channels_webhook_key_unique" ON "messaging_channels" USING btree ("webhook_key");--> statement-breakpoint
CREATE INDEX "patient_channel_consents_patient_idx" ON "patient_channel_consents" USING btree ("account_id","patient_id","channel","recorded_at" DESC NULLS LAST);--> statement-breakpoint
-- hand-written: row-level security, forced, with the clinic's policy and the app roles' grants; a
-- portal transaction sees only its patient's messages, replies and consents; the bounds of the
-- clinic's message settings (the shared contract's).
SELECT enable_tenant_rls(t) FROM unnest(ARRAY[
  'messaging_channels', 'patient_channel_consents', 'messages', 'message_status_events', 'inbound_messages',
  'message_templates'
]::regclass[]) AS t;
--> statement-breakpoint
SELECT enable_patient_rls(t, 'patient_id = current_patient_id()')
  FROM unnest(ARRAY['messages', 'patient_channel_consents', 'inbound_messages']::regclass[]) AS t;
--> statement-breakpoint
SELECT enable_patient_rls('message_status_events',
  'EXISTS (SELECT 1 FROM messages p WHERE p.account_id = message_status_events.account_id AND p.id = message_status_events.message_id)');
--> statement-breakpoint
ALTER TABLE accounts ADD CONSTRAINT accounts_message_settings CHECK (
  reminder_channels <@ ARRAY['email', 'sms', 'whatsapp']::text[]
  AND cardinality(reminder_channels) BETWEEN 1 AND 3
  AND (quiet_hours_start IS NULL) = (quiet_hours_end IS NULL)
  AND quiet_hours_start BETWEEN 0 AND 1439 AND quiet_hours_end BETWEEN 0 AND 1439
);
