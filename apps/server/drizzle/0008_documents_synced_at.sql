-- When a source item was last read from its source, changed or not: citations show it, and a
-- scheduled re-crawl that finds a page unchanged still moves it forward.
ALTER TABLE "documents" ADD COLUMN "synced_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "documents" SET "synced_at" = "updated_at";
