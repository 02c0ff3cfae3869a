ALTER TABLE "accounts" ADD COLUMN "default_language" text DEFAULT 'es' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "date_format" text DEFAULT 'DD/MM/YYYY' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "upload_max_mb" integer;