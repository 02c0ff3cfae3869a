-- Clinical records of the medical history (issue 5): diagnoses, laboratory orders, attendances with
-- their billing lines, supplies and medicines used, and addenda. Never physically deleted.
CREATE TABLE "attendance_addenda" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"attendance_id" uuid NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	CONSTRAINT "attendance_addenda_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "attendance_items" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"attendance_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	CONSTRAINT "attendance_items_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "attendance_items_kind" CHECK ("attendance_items"."kind" in ('supply', 'medication')),
	CONSTRAINT "attendance_items_quantity" CHECK ("attendance_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "attendance_lines" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"attendance_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"item_id" uuid,
	"quantity" integer NOT NULL,
	"price" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	CONSTRAINT "attendance_lines_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "attendance_lines_amounts" CHECK ("attendance_lines"."quantity" > 0 and "attendance_lines"."price" >= 0 and "attendance_lines"."total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "attendances" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"date" timestamp with time zone NOT NULL,
	"attendance_type" text NOT NULL,
	"attendance_group" text NOT NULL,
	"specialization" text,
	"professional_id" uuid NOT NULL,
	"title_resume" text NOT NULL,
	"resume" text,
	"detail" text,
	"next_appointment" date,
	"finished" boolean DEFAULT false NOT NULL,
	"finished_at" timestamp with time zone,
	"result_date" date,
	"result" text,
	"billable" boolean DEFAULT false NOT NULL,
	"attendance_fee" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total_billable" numeric(14, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "attendances_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "attendances_money" CHECK ("attendances"."attendance_fee" >= 0 and "attendances"."total_billable" >= 0)
);
--> statement-breakpoint
CREATE TABLE "diagnoses" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"date" date NOT NULL,
	"professional_id" uuid NOT NULL,
	"text" text NOT NULL,
	"icd10_code" text,
	"teeth" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"status" text NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "diagnoses_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "diagnoses_status" CHECK ("diagnoses"."status" in ('active', 'resolved'))
);
--> statement-breakpoint
CREATE TABLE "laboratories" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"order_date" date NOT NULL,
	"professional_id" uuid NOT NULL,
	"laboratory_name" text NOT NULL,
	"studies" text[] NOT NULL,
	"instructions" text,
	"notes" text,
	"status" text NOT NULL,
	"result_date" date,
	"result" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "laboratories_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "laboratories_status" CHECK ("laboratories"."status" in ('ordered', 'sample_taken', 'result_received')),
	CONSTRAINT "laboratories_result_date" CHECK ("laboratories"."result_date" is null or "laboratories"."result_date" >= "laboratories"."order_date")
);
--> statement-breakpoint
ALTER TABLE "attendance_addenda" ADD CONSTRAINT "attendance_addenda_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_addenda" ADD CONSTRAINT "attendance_addenda_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_addenda" ADD CONSTRAINT "attendance_addenda_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_items" ADD CONSTRAINT "attendance_items_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_items" ADD CONSTRAINT "attendance_items_account_id_item_id_inventory_items_account_id_id_fk" FOREIGN KEY ("account_id","item_id") REFERENCES "public"."inventory_items"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_items" ADD CONSTRAINT "attendance_items_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_items" ADD CONSTRAINT "attendance_items_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_lines" ADD CONSTRAINT "attendance_lines_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_lines" ADD CONSTRAINT "attendance_lines_account_id_item_id_inventory_items_account_id_id_fk" FOREIGN KEY ("account_id","item_id") REFERENCES "public"."inventory_items"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_lines" ADD CONSTRAINT "attendance_lines_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_lines" ADD CONSTRAINT "attendance_lines_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendances" ADD CONSTRAINT "attendances_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendances" ADD CONSTRAINT "attendances_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendances" ADD CONSTRAINT "attendances_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendances" ADD CONSTRAINT "attendances_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendances" ADD CONSTRAINT "attendances_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendances" ADD CONSTRAINT "attendances_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laboratories" ADD CONSTRAINT "laboratories_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laboratories" ADD CONSTRAINT "laboratories_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laboratories" ADD CONSTRAINT "laboratories_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laboratories" ADD CONSTRAINT "laboratories_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laboratories" ADD CONSTRAINT "laboratories_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "laboratories" ADD CONSTRAINT "laboratories_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendance_addenda_attendance_idx" ON "attendance_addenda" USING btree ("account_id","attendance_id","created_at");--> statement-breakpoint
CREATE INDEX "attendance_items_attendance_idx" ON "attendance_items" USING btree ("account_id","attendance_id") WHERE "attendance_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "attendance_lines_attendance_idx" ON "attendance_lines" USING btree ("account_id","attendance_id","position") WHERE "attendance_lines"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "attendances_patient_idx" ON "attendances" USING btree ("account_id","patient_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "attendances"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "diagnoses_patient_idx" ON "diagnoses" USING btree ("account_id","patient_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "diagnoses"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "laboratories_patient_idx" ON "laboratories" USING btree ("account_id","patient_id","order_date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "laboratories"."deleted_at" is null;
--> statement-breakpoint
SELECT enable_tenant_rls('diagnoses');
--> statement-breakpoint
SELECT enable_tenant_rls('laboratories');
--> statement-breakpoint
SELECT enable_tenant_rls('attendances');
--> statement-breakpoint
SELECT enable_tenant_rls('attendance_lines');
--> statement-breakpoint
SELECT enable_tenant_rls('attendance_items');
--> statement-breakpoint
SELECT enable_tenant_rls('attendance_addenda');
--> statement-breakpoint
-- Clinical records are never physically deleted (ARCHITECTURE §4): "delete" sets deleted_at.
REVOKE DELETE, TRUNCATE ON diagnoses, laboratories, attendances, attendance_lines, attendance_items, attendance_addenda FROM odontia_app, odontia_system;
