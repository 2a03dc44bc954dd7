CREATE TABLE "chunk_collection_versions" (
	"tenant_id" integer NOT NULL,
	"source_type" text NOT NULL,
	"collection_id" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "chunk_collection_versions_tenant_id_source_type_collection_id_pk" PRIMARY KEY("tenant_id","source_type","collection_id")
);
--> statement-breakpoint
-- Any statement that writes chunks (training, deletes, cascades, bulk loads) bumps the versions of
-- the collections it touched, once per statement, so retrieval's in-memory index can tell when it
-- is stale without trusting events. Q&A pairs bump their bot's 'qna' collection too: retrieval
-- keeps the trained questions in memory as well. TG_ARGV: the source type and collection id of a
-- written row, as SQL over its columns. Sorted so concurrent writers lock version rows in one order.
CREATE FUNCTION "bump_collection_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	touched text := CASE TG_OP
		WHEN 'INSERT' THEN 'SELECT * FROM new_rows'
		WHEN 'DELETE' THEN 'SELECT * FROM old_rows'
		ELSE 'SELECT * FROM new_rows UNION ALL SELECT * FROM old_rows' END;
BEGIN
	EXECUTE format(
		'INSERT INTO chunk_collection_versions AS v (tenant_id, source_type, collection_id, version)
		SELECT DISTINCT tenant_id, %s, %s, 1 FROM (%s) touched ORDER BY 1, 2, 3
		ON CONFLICT (tenant_id, source_type, collection_id) DO UPDATE SET version = v.version + 1',
		TG_ARGV[0], TG_ARGV[1], touched);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "chunks_version_insert" AFTER INSERT ON "chunks" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('source_type', 'collection_id');
--> statement-breakpoint
CREATE TRIGGER "chunks_version_update" AFTER UPDATE ON "chunks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('source_type', 'collection_id');
--> statement-breakpoint
CREATE TRIGGER "chunks_version_delete" AFTER DELETE ON "chunks" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('source_type', 'collection_id');
--> statement-breakpoint
CREATE TRIGGER "qna_version_insert" AFTER INSERT ON "qna" REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('''qna''', 'bot_id');
--> statement-breakpoint
CREATE TRIGGER "qna_version_update" AFTER UPDATE ON "qna" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('''qna''', 'bot_id');
--> statement-breakpoint
CREATE TRIGGER "qna_version_delete" AFTER DELETE ON "qna" REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION bump_collection_versions('''qna''', 'bot_id');
