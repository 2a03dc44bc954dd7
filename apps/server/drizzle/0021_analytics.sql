CREATE TABLE "analytics_daily" (
	"tenant_id" integer NOT NULL,
	"day" date NOT NULL,
	"bot_id" integer NOT NULL,
	"channel" text NOT NULL,
	"metric" text NOT NULL,
	"key" text DEFAULT '' NOT NULL,
	"value" bigint NOT NULL,
	CONSTRAINT "analytics_daily_tenant_id_day_bot_id_channel_metric_key_pk" PRIMARY KEY("tenant_id","day","bot_id","channel","metric","key")
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup_state" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"rolled_until" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_clicks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"bot_id" integer NOT NULL,
	"conversation_id" integer,
	"channel" text DEFAULT 'web' NOT NULL,
	"visitor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_ratings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"bot_id" integer NOT NULL,
	"conversation_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"rater_key" text NOT NULL,
	"visitor_id" text,
	"rating" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_rollup_state" ADD CONSTRAINT "analytics_rollup_state_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_clicks" ADD CONSTRAINT "booking_clicks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_ratings" ADD CONSTRAINT "message_ratings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_clicks_tenant_idx" ON "booking_clicks" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "message_ratings_rater_key" ON "message_ratings" USING btree ("message_id","rater_key");--> statement-breakpoint
CREATE INDEX "message_ratings_tenant_idx" ON "message_ratings" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "conversation_events_tenant_created_idx" ON "conversation_events" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_tenant_created_idx" ON "conversations" USING btree ("tenant_id","created_at");