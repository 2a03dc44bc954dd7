ALTER TABLE "llm_settings" ADD COLUMN "last_test_ok" boolean;--> statement-breakpoint
ALTER TABLE "llm_settings" ADD COLUMN "last_test_detail" text;--> statement-breakpoint
ALTER TABLE "llm_settings" ADD COLUMN "last_test_latency_ms" integer;--> statement-breakpoint
ALTER TABLE "llm_settings" ADD COLUMN "last_tested_at" timestamp with time zone;