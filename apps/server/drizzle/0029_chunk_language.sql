-- Each chunk is indexed in its document's language (knowledge/languages.ts). Rows written before
-- keep 'english', the only configuration there was, so their vectors come out as they were.
ALTER TABLE "documents" ADD COLUMN "language" text DEFAULT 'english' NOT NULL;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "language" "regconfig" DEFAULT 'english'::regconfig NOT NULL;--> statement-breakpoint
ALTER TABLE "chunks" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector(language, regexp_replace(coalesce(page_title, ''), '[/_.-]+', ' ', 'g') || ' ' || coalesce(heading_path, '')), 'A') || setweight(to_tsvector(language, content), 'B')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "chunks_search_idx" ON "chunks" USING gin ("search") WITH (gin_pending_list_limit = 1024);
