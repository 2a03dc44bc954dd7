CREATE TABLE "message_usage" (
	"tenant_id" integer NOT NULL,
	"month" text NOT NULL,
	"bot_messages" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "message_usage_tenant_id_month_pk" PRIMARY KEY("tenant_id","month")
);
--> statement-breakpoint
ALTER TABLE "message_usage" ADD CONSTRAINT "message_usage_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;