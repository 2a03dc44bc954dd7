ALTER TABLE "invitations" ADD COLUMN "token_sealed" text;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bots_restricted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Leads became a feature of their own (issue 31: agents read leads without managing bots). Roles that
-- read Create Bot read leads before, so they keep reading them.
-- (Only on an existing install: a new database gets it from the start-up seed, after the others.)
INSERT INTO "features" ("tenant_id", "name")
  SELECT NULL, 'Leads' WHERE EXISTS (SELECT 1 FROM "features" WHERE "tenant_id" IS NULL)
  ON CONFLICT (coalesce("tenant_id", 0), lower("name")) DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("tenant_id", "role_id", "feature_id", "can_create", "can_read", "can_write")
  SELECT rp."tenant_id", rp."role_id", leads."id", false, true, false
  FROM "role_permissions" rp
  JOIN "features" bots ON bots."id" = rp."feature_id" AND bots."tenant_id" IS NULL AND bots."name" = 'Create Bot'
  CROSS JOIN (SELECT "id" FROM "features" WHERE "tenant_id" IS NULL AND "name" = 'Leads') leads
  WHERE rp."can_read"
  ON CONFLICT ("role_id", "feature_id") DO UPDATE SET "can_read" = true;--> statement-breakpoint
-- A partner keeps their workspace: partners are users again, the partner area follows the partners row.
UPDATE "users" SET "user_type" = 'user' WHERE "user_type" = 'partner';--> statement-breakpoint
UPDATE "roles" SET "description" = 'Everything, billing and deleting the workspace included'
  WHERE "is_owner" AND "description" IS NULL;--> statement-breakpoint
UPDATE "roles" SET "description" = 'Home and their own profile only'
  WHERE "name" = 'Member' AND NOT "is_owner" AND "description" IS NULL;
