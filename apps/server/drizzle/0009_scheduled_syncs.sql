-- Scheduled re-syncs (issue 14 item 6): a web source or Notion workspace may be read again daily or
-- weekly at an hour (UTC); the scheduler enqueues its job when next_sync_at is due. A crawled page keeps
-- the ETag, Last-Modified and links the site sent, so a re-crawl asks conditionally and goes on past a 304.
ALTER TABLE "crawled_pages" ADD COLUMN "etag" text;--> statement-breakpoint
ALTER TABLE "crawled_pages" ADD COLUMN "last_modified" text;--> statement-breakpoint
ALTER TABLE "crawled_pages" ADD COLUMN "links" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "web_sources" ADD COLUMN "crawl_settings" jsonb;--> statement-breakpoint
ALTER TABLE "web_sources" ADD COLUMN "schedule" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "web_sources" ADD COLUMN "schedule_hour" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "web_sources" ADD COLUMN "next_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "web_sources" ADD COLUMN "last_changes" jsonb;--> statement-breakpoint
ALTER TABLE "web_sources" ADD COLUMN "sync_task_id" uuid;--> statement-breakpoint
ALTER TABLE "notion_workspaces" ADD COLUMN "schedule" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "notion_workspaces" ADD COLUMN "schedule_hour" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "notion_workspaces" ADD COLUMN "next_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notion_workspaces" ADD COLUMN "last_changes" jsonb;--> statement-breakpoint
ALTER TABLE "notion_workspaces" ADD COLUMN "sync_task_id" uuid;--> statement-breakpoint
CREATE INDEX "web_sources_next_sync_idx" ON "web_sources" USING btree ("next_sync_at");--> statement-breakpoint
CREATE INDEX "notion_workspaces_next_sync_idx" ON "notion_workspaces" USING btree ("next_sync_at");