-- One sign-in across clinics (issue 19): the person's e-mail and password move to `logins`,
-- shared by their memberships (`users`, one row per clinic). The e-mail is unique across the
-- installation on the login; a clinic has one membership per login (and per e-mail).
CREATE TABLE "logins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"last_account_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "login_id" uuid;--> statement-breakpoint
-- Hand-written: every existing user becomes a login of its own (the e-mail was unique across the
-- installation until now), with the same id. A password not yet proven by an activation waits on
-- the user's activation links, as a new sign-up's does.
INSERT INTO "logins" ("id", "email", "password_hash", "last_account_id", "created_at", "updated_at")
SELECT "id", lower("email"), CASE WHEN "activated_at" IS NOT NULL THEN "password_hash" END, "account_id",
       "created_at", "updated_at"
  FROM "users";
--> statement-breakpoint
UPDATE "auth_tokens" t SET "password_hash" = u."password_hash"
  FROM "users" u
 WHERE u."account_id" = t."account_id" AND u."id" = t."user_id"
   AND t."purpose" = 'activation' AND u."activated_at" IS NULL;
--> statement-breakpoint
UPDATE "users" SET "login_id" = "id";--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "login_id" SET NOT NULL;--> statement-breakpoint
DROP INDEX "users_email_unique";--> statement-breakpoint
ALTER TABLE "logins" ADD CONSTRAINT "logins_last_account_id_accounts_id_fk" FOREIGN KEY ("last_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "logins_email_unique" ON "logins" USING btree (lower("email"));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_login_id_logins_id_fk" FOREIGN KEY ("login_id") REFERENCES "public"."logins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_account_email_unique" ON "users" USING btree ("account_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_unique" ON "users" USING btree ("login_id","account_id");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "password_hash";--> statement-breakpoint
-- Hand-written: the logins belong to the installation, not to a clinic (no account_id, no
-- row-level security, like auth_failures). Only the system context of the auth flows reads or
-- writes them: a clinic's transaction never sees a password hash.
REVOKE ALL ON "logins" FROM odontia_app;--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON "logins" FROM odontia_system;
