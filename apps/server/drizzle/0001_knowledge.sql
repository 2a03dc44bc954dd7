CREATE TABLE "bot_file_groups" (
	"tenant_id" integer NOT NULL,
	"bot_id" integer NOT NULL,
	"file_group_id" integer NOT NULL,
	CONSTRAINT "bot_file_groups_bot_id_file_group_id_pk" PRIMARY KEY("bot_id","file_group_id")
);
--> statement-breakpoint
CREATE TABLE "bot_notion_workspaces" (
	"tenant_id" integer NOT NULL,
	"bot_id" integer NOT NULL,
	"notion_workspace_id" integer NOT NULL,
	CONSTRAINT "bot_notion_workspaces_bot_id_notion_workspace_id_pk" PRIMARY KEY("bot_id","notion_workspace_id")
);
--> statement-breakpoint
CREATE TABLE "bot_web_sources" (
	"tenant_id" integer NOT NULL,
	"bot_id" integer NOT NULL,
	"web_source_id" integer NOT NULL,
	CONSTRAINT "bot_web_sources_bot_id_web_source_id_pk" PRIMARY KEY("bot_id","web_source_id")
);
--> statement-breakpoint
CREATE TABLE "bots" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"bot_name" text NOT NULL,
	"description" text,
	"profile_image" text,
	"temperature" real DEFAULT 1 NOT NULL,
	"prompt" text,
	"llm_model" text,
	"internet" boolean DEFAULT false NOT NULL,
	"analytics" boolean DEFAULT false NOT NULL,
	"brand_color" text DEFAULT '#ffffff' NOT NULL,
	"welcome_message" text,
	"suggestion_questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"lead_form_config" jsonb,
	"shopify_store_id" integer,
	"woocommerce_store_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crawled_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"web_source_id" integer NOT NULL,
	"user_id" integer,
	"url" text NOT NULL,
	"title" text,
	"content_hash" text NOT NULL,
	"character_count" integer DEFAULT 0 NOT NULL,
	"trained" boolean DEFAULT false NOT NULL,
	"crawled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "web_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer,
	"base_url" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"last_crawled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer,
	"group_name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"file_group_id" integer NOT NULL,
	"filename" text NOT NULL,
	"storage_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"character_count" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"trained" boolean DEFAULT false NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"source_type" text NOT NULL,
	"collection_id" integer NOT NULL,
	"chunk_index" integer NOT NULL,
	"content" text NOT NULL,
	"heading_path" text,
	"page_title" text,
	"page_url" text,
	"page_number" integer,
	"token_count" integer NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', regexp_replace(coalesce(page_title, ''), '[/_.-]+', ' ', 'g') || ' ' || coalesce(heading_path, '')), 'A') || setweight(to_tsvector('english', content), 'B')) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"source_type" text NOT NULL,
	"source_id" integer NOT NULL,
	"collection_id" integer NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"content_hash" text NOT NULL,
	"character_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notion_oauth_states" (
	"nonce" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notion_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"workspace_id" integer NOT NULL,
	"page_id" text NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"last_edited_time" timestamp with time zone,
	"character_count" integer DEFAULT 0 NOT NULL,
	"trained" boolean DEFAULT false NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notion_workspaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer,
	"workspace_id" text NOT NULL,
	"workspace_name" text NOT NULL,
	"workspace_icon" text,
	"access_token_sealed" text NOT NULL,
	"last_synced_at" timestamp with time zone,
	"trained" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qna" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"bot_id" integer NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"chat_id" integer,
	"trained" boolean DEFAULT false NOT NULL,
	"character_count" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bot_file_groups" ADD CONSTRAINT "bot_file_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_file_groups" ADD CONSTRAINT "bot_file_groups_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_file_groups" ADD CONSTRAINT "bot_file_groups_file_group_id_file_groups_id_fk" FOREIGN KEY ("file_group_id") REFERENCES "public"."file_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_notion_workspaces" ADD CONSTRAINT "bot_notion_workspaces_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_notion_workspaces" ADD CONSTRAINT "bot_notion_workspaces_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_notion_workspaces" ADD CONSTRAINT "bot_notion_workspaces_notion_workspace_id_notion_workspaces_id_fk" FOREIGN KEY ("notion_workspace_id") REFERENCES "public"."notion_workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_web_sources" ADD CONSTRAINT "bot_web_sources_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_web_sources" ADD CONSTRAINT "bot_web_sources_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_web_sources" ADD CONSTRAINT "bot_web_sources_web_source_id_web_sources_id_fk" FOREIGN KEY ("web_source_id") REFERENCES "public"."web_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawled_pages" ADD CONSTRAINT "crawled_pages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawled_pages" ADD CONSTRAINT "crawled_pages_web_source_id_web_sources_id_fk" FOREIGN KEY ("web_source_id") REFERENCES "public"."web_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawled_pages" ADD CONSTRAINT "crawled_pages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_sources" ADD CONSTRAINT "web_sources_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_sources" ADD CONSTRAINT "web_sources_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_groups" ADD CONSTRAINT "file_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_groups" ADD CONSTRAINT "file_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_file_group_id_file_groups_id_fk" FOREIGN KEY ("file_group_id") REFERENCES "public"."file_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notion_oauth_states" ADD CONSTRAINT "notion_oauth_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notion_oauth_states" ADD CONSTRAINT "notion_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notion_pages" ADD CONSTRAINT "notion_pages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notion_pages" ADD CONSTRAINT "notion_pages_workspace_id_notion_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."notion_workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notion_workspaces" ADD CONSTRAINT "notion_workspaces_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notion_workspaces" ADD CONSTRAINT "notion_workspaces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qna" ADD CONSTRAINT "qna_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qna" ADD CONSTRAINT "qna_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_file_groups_source_idx" ON "bot_file_groups" USING btree ("file_group_id");--> statement-breakpoint
CREATE INDEX "bot_notion_workspaces_source_idx" ON "bot_notion_workspaces" USING btree ("notion_workspace_id");--> statement-breakpoint
CREATE INDEX "bot_web_sources_source_idx" ON "bot_web_sources" USING btree ("web_source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bots_uuid_key" ON "bots" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "bots_tenant_name_key" ON "bots" USING btree ("tenant_id",lower("bot_name"));--> statement-breakpoint
CREATE INDEX "bots_tenant_idx" ON "bots" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "crawled_pages_source_url_key" ON "crawled_pages" USING btree ("web_source_id","url");--> statement-breakpoint
CREATE INDEX "crawled_pages_tenant_idx" ON "crawled_pages" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "web_sources_tenant_url_key" ON "web_sources" USING btree ("tenant_id","base_url");--> statement-breakpoint
CREATE UNIQUE INDEX "file_groups_tenant_name_key" ON "file_groups" USING btree ("tenant_id",lower("group_name"));--> statement-breakpoint
CREATE INDEX "files_group_idx" ON "files" USING btree ("file_group_id");--> statement-breakpoint
CREATE INDEX "files_tenant_idx" ON "files" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chunks_document_index_key" ON "chunks" USING btree ("document_id","chunk_index");--> statement-breakpoint
CREATE INDEX "chunks_scope_idx" ON "chunks" USING btree ("tenant_id","source_type","collection_id");--> statement-breakpoint
CREATE INDEX "chunks_search_idx" ON "chunks" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_source_key" ON "documents" USING btree ("tenant_id","source_type","source_id");--> statement-breakpoint
CREATE INDEX "documents_collection_idx" ON "documents" USING btree ("tenant_id","source_type","collection_id");--> statement-breakpoint
CREATE INDEX "notion_oauth_states_expires_idx" ON "notion_oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notion_pages_ws_page_key" ON "notion_pages" USING btree ("workspace_id","page_id");--> statement-breakpoint
CREATE INDEX "notion_pages_tenant_idx" ON "notion_pages" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notion_workspaces_tenant_ws_key" ON "notion_workspaces" USING btree ("tenant_id","workspace_id");--> statement-breakpoint
CREATE INDEX "qna_bot_idx" ON "qna" USING btree ("bot_id");--> statement-breakpoint
CREATE INDEX "qna_tenant_idx" ON "qna" USING btree ("tenant_id");