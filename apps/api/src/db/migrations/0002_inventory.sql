-- Inventory (issue 4): one catalogue of medicines and supplies and one stock ledger.
-- The search key of an item: its words lower-cased and without accents, so "anestesico" finds
-- "Anestésico". unaccent() is only STABLE (it reads a dictionary); naming the dictionary makes
-- this wrapper safe to declare IMMUTABLE and use in a generated column and its trigram index.
CREATE OR REPLACE FUNCTION odontia_search_text(VARIADIC parts text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, array_to_string(parts, ' '))) $$;
--> statement-breakpoint
CREATE TABLE "inventory_items" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"manufacturer" text,
	"sku" text,
	"bar_code" text,
	"cost_price" numeric(14, 2) NOT NULL,
	"base_price" numeric(14, 2) NOT NULL,
	"tax_rate" numeric(5, 2) NOT NULL,
	"total_stock" integer DEFAULT 0 NOT NULL,
	"min_stock" integer DEFAULT 0 NOT NULL,
	"max_stock" integer,
	"reorder_stock" integer DEFAULT 0 NOT NULL,
	"storage_conditions" text,
	"product_status" text DEFAULT 'active' NOT NULL,
	"active_principle" text,
	"concentration" text,
	"presentation" text,
	"application_type" text,
	"prescription_required" boolean,
	"approval_status" text,
	"age_restriction" text,
	"dosage" text,
	"indications" text,
	"side_effects" text,
	"contraindications" text,
	"brand" text,
	"model" text,
	"consumable" boolean,
	"unit_measurement" text,
	"packaging_qty" integer,
	"search_text" text GENERATED ALWAYS AS (odontia_search_text(name, sku, bar_code, active_principle)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "inventory_items_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "inventory_items_stock_not_negative" CHECK ("inventory_items"."total_stock" >= 0),
	CONSTRAINT "inventory_items_levels_order" CHECK ("inventory_items"."min_stock" <= "inventory_items"."reorder_stock" and ("inventory_items"."max_stock" is null or "inventory_items"."reorder_stock" <= "inventory_items"."max_stock")),
	CONSTRAINT "inventory_items_prices" CHECK ("inventory_items"."cost_price" >= 0 and "inventory_items"."base_price" >= 0),
	CONSTRAINT "inventory_items_tax_rate" CHECK ("inventory_items"."tax_rate" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"stock_after" integer NOT NULL,
	"unit_cost" numeric(14, 2),
	"reason" text,
	"reference_type" text,
	"reference_id" uuid,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movements_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "stock_movements_stock_after" CHECK ("stock_movements"."stock_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_account_id_item_id_inventory_items_account_id_id_fk" FOREIGN KEY ("account_id","item_id") REFERENCES "public"."inventory_items"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_account_id_user_id_users_account_id_id_fk" FOREIGN KEY ("account_id","user_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_items_sku_unique" ON "inventory_items" USING btree ("account_id",lower("sku")) WHERE "inventory_items"."sku" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_items_bar_code_unique" ON "inventory_items" USING btree ("account_id","bar_code") WHERE "inventory_items"."bar_code" is not null;--> statement-breakpoint
CREATE INDEX "inventory_items_name_idx" ON "inventory_items" USING btree ("account_id","kind","name","id");--> statement-breakpoint
CREATE INDEX "inventory_items_search_idx" ON "inventory_items" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "inventory_items_reorder_idx" ON "inventory_items" USING btree ("account_id","kind","name") WHERE "inventory_items"."total_stock" <= "inventory_items"."reorder_stock";--> statement-breakpoint
CREATE INDEX "stock_movements_item_idx" ON "stock_movements" USING btree ("account_id","item_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_reference_idx" ON "stock_movements" USING btree ("account_id","reference_type","reference_id") WHERE "stock_movements"."reference_id" is not null;
--> statement-breakpoint
SELECT enable_tenant_rls('inventory_items');
--> statement-breakpoint
SELECT enable_tenant_rls('stock_movements');
--> statement-breakpoint
-- The ledger is append-only: a movement is corrected by another movement, never edited.
REVOKE UPDATE, DELETE, TRUNCATE ON stock_movements FROM odontia_app, odontia_system;
--> statement-breakpoint
-- The catalogue is never deleted from (an item leaves by becoming inactive).
REVOKE DELETE, TRUNCATE ON inventory_items FROM odontia_app, odontia_system;
