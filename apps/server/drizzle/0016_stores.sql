CREATE TABLE "store_oauth_states" (
	"nonce" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer,
	"shop" text NOT NULL,
	"bot_id" integer,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"status" text,
	"lookup_key" text,
	"data" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"remote_updated_at" timestamp with time zone,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"training_status" text,
	"trained_hash" text
);
--> statement-breakpoint
CREATE TABLE "store_webhook_events" (
	"platform" text NOT NULL,
	"event_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_webhook_events_platform_event_id_pk" PRIMARY KEY("platform","event_id")
);
--> statement-breakpoint
CREATE TABLE "stores" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer,
	"platform" text NOT NULL,
	"domain" text NOT NULL,
	"name" text NOT NULL,
	"storefront_url" text NOT NULL,
	"currency" text,
	"credentials_sealed" text NOT NULL,
	"webhook_secret_sealed" text,
	"status" text DEFAULT 'connected' NOT NULL,
	"sync_status" jsonb,
	"sync_task_id" uuid,
	"train_task_id" uuid,
	"last_synced_at" timestamp with time zone,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "store_oauth_states" ADD CONSTRAINT "store_oauth_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_oauth_states" ADD CONSTRAINT "store_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_records" ADD CONSTRAINT "store_records_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_records" ADD CONSTRAINT "store_records_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_oauth_states_expires_idx" ON "store_oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "store_records_key" ON "store_records" USING btree ("store_id","kind","external_id");--> statement-breakpoint
CREATE INDEX "store_records_list_idx" ON "store_records" USING btree ("tenant_id","store_id","kind","id");--> statement-breakpoint
CREATE INDEX "store_records_lookup_idx" ON "store_records" USING btree ("store_id","kind","lookup_key");--> statement-breakpoint
CREATE INDEX "store_webhook_events_received_idx" ON "store_webhook_events" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "stores_tenant_domain_key" ON "stores" USING btree ("tenant_id","platform","domain");--> statement-breakpoint
CREATE INDEX "stores_domain_idx" ON "stores" USING btree ("platform","domain");--> statement-breakpoint
-- No store existed before this migration: any id a bot held named nothing.
UPDATE "bots" SET "shopify_store_id" = NULL, "woocommerce_store_id" = NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_shopify_store_id_stores_id_fk" FOREIGN KEY ("shopify_store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_woocommerce_store_id_stores_id_fk" FOREIGN KEY ("woocommerce_store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;