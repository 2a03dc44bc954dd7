CREATE TABLE "social_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"channel" text NOT NULL,
	"external_id" text NOT NULL,
	"page_id" text NOT NULL,
	"page_name" text NOT NULL,
	"instagram_account_id" text,
	"username" text,
	"access_token" text NOT NULL,
	"bot_id" integer,
	"last_bot_id" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"inactive_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_deliveries" (
	"channel" text NOT NULL,
	"event_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_oauth_states" (
	"nonce" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_last_bot_id_bots_id_fk" FOREIGN KEY ("last_bot_id") REFERENCES "public"."bots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_oauth_states" ADD CONSTRAINT "social_oauth_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_oauth_states" ADD CONSTRAINT "social_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "social_accounts_external_key" ON "social_accounts" USING btree ("channel","external_id");--> statement-breakpoint
CREATE INDEX "social_accounts_tenant_idx" ON "social_accounts" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "social_deliveries_key" ON "social_deliveries" USING btree ("channel","event_id");--> statement-breakpoint
CREATE INDEX "social_deliveries_received_idx" ON "social_deliveries" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "social_oauth_states_expires_idx" ON "social_oauth_states" USING btree ("expires_at");