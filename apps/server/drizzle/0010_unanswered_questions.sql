CREATE TABLE "unanswered_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"bot_id" integer NOT NULL,
	"question" text NOT NULL,
	"terms" text[] NOT NULL,
	"asked_count" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"qna_id" integer,
	"first_asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_asked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unanswered_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"question" text NOT NULL,
	"conversation_id" integer,
	"reason" text NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "unanswered_groups" ADD CONSTRAINT "unanswered_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_groups" ADD CONSTRAINT "unanswered_groups_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_groups" ADD CONSTRAINT "unanswered_groups_qna_id_qna_id_fk" FOREIGN KEY ("qna_id") REFERENCES "public"."qna"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD CONSTRAINT "unanswered_questions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD CONSTRAINT "unanswered_questions_group_id_unanswered_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."unanswered_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unanswered_groups_bot_idx" ON "unanswered_groups" USING btree ("tenant_id","bot_id","status","last_asked_at");--> statement-breakpoint
CREATE INDEX "unanswered_questions_group_idx" ON "unanswered_questions" USING btree ("group_id","asked_at");