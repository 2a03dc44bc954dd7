CREATE SEQUENCE "public"."chunk_generations" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1;--> statement-breakpoint
DROP INDEX "chunks_document_index_key";--> statement-breakpoint
DROP INDEX "chunks_scope_idx";--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "chunks_document_index_key" ON "chunks" USING btree ("document_id","generation","chunk_index");--> statement-breakpoint
CREATE INDEX "chunks_scope_idx" ON "chunks" USING btree ("tenant_id","source_type","collection_id","id");
--> statement-breakpoint
-- Chunk rows outside their document's live generation (a large file's retrain being written batch
-- by batch, or the old generation deleted after the swap, which bumped the version itself) change
-- nothing retrieval reads, so they leave the collection's version alone: otherwise every batch of a
-- training would make the collection's in-memory index stale, and its searches would fall back to
-- SQL (and rebuild the index) for as long as the training runs. TG_ARGV[2]: an optional filter on the
-- touched rows (alias `touched`).
CREATE OR REPLACE FUNCTION "bump_collection_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	touched text := CASE TG_OP
		WHEN 'INSERT' THEN 'SELECT * FROM new_rows'
		WHEN 'DELETE' THEN 'SELECT * FROM old_rows'
		ELSE 'SELECT * FROM new_rows UNION ALL SELECT * FROM old_rows' END;
BEGIN
	EXECUTE format(
		'INSERT INTO chunk_collection_versions AS v (tenant_id, source_type, collection_id, version)
		SELECT DISTINCT tenant_id, %s, %s, 1 FROM (%s) touched WHERE %s ORDER BY 1, 2, 3
		ON CONFLICT (tenant_id, source_type, collection_id) DO UPDATE SET version = v.version + 1',
		TG_ARGV[0], TG_ARGV[1], touched, coalesce(TG_ARGV[2], 'true'));
	RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "chunks_version_insert" ON "chunks";
--> statement-breakpoint
DROP TRIGGER "chunks_version_update" ON "chunks";
--> statement-breakpoint
DROP TRIGGER "chunks_version_delete" ON "chunks";
--> statement-breakpoint
CREATE TRIGGER "chunks_version_insert" AFTER INSERT ON "chunks" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('source_type', 'collection_id', 'NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = touched.document_id AND d.generation <> touched.generation)');
--> statement-breakpoint
CREATE TRIGGER "chunks_version_update" AFTER UPDATE ON "chunks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('source_type', 'collection_id', 'NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = touched.document_id AND d.generation <> touched.generation)');
--> statement-breakpoint
CREATE TRIGGER "chunks_version_delete" AFTER DELETE ON "chunks" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('source_type', 'collection_id', 'NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = touched.document_id AND d.generation <> touched.generation)');
--> statement-breakpoint
-- Training writes chunks in small batches (ingest.ts trainDocument). GIN gathers new entries in a
-- pending list and merges it into the index when it passes gin_pending_list_limit (4 MB by default):
-- every few megabytes of text one batch paid 150-200 ms for the merge on PGlite, stalling every
-- request meanwhile. A 1 MB list merges more often, each merge well under that (256 kB stalled no
-- less and slowed ingest); turning the list off instead made each insert dearer and training three
-- times slower (bench/ingest/stall.mjs).
ALTER INDEX "chunks_search_idx" SET (gin_pending_list_limit = 1024);
