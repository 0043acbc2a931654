-- Issue 32 (staff console I). See packages/db/src/schema/staff-console.ts and
-- docs/decisions/staff-console.md. pg_trgm ships with PostgreSQL's contrib and with PGlite (the
-- client and the database's thread load it as an extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"intent_id" bigint,
	"detail" text,
	"request_id" text
);
--> statement-breakpoint
CREATE TABLE "user_directory" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"role" text COLLATE "C" NOT NULL,
	"organisation_name" text,
	"added_by" text,
	"removed_by" text,
	"kyc_status" text NOT NULL,
	"mfa_setup" boolean NOT NULL,
	"mfa_confirm" boolean NOT NULL,
	"status_changed_at" timestamp with time zone NOT NULL,
	"first_login_at" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"email_key" text COLLATE "C" NOT NULL,
	"first_name_key" text COLLATE "C" NOT NULL,
	"last_name_key" text COLLATE "C" NOT NULL,
	"organisation_key" text COLLATE "C" NOT NULL,
	"search_text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_status_counts" (
	"status" text PRIMARY KEY NOT NULL,
	"count" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_email_unique";--> statement-breakpoint
ALTER TABLE "user_directory" ADD CONSTRAINT "user_directory_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_occurred_idx" ON "audit_log" USING btree ("occurred_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","occurred_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_record_idx" ON "audit_log" USING btree ("record_type","record_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree (lower("actor_email") collate "C","occurred_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_intent_idx" ON "audit_log" USING btree ("intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_live_idx" ON "users" USING btree ("email") WHERE status <> 'REMOVED';--> statement-breakpoint
-- The user list's keyset indexes: one per sortable column, led by the tab (status).
CREATE INDEX "user_directory_changed_idx" ON "user_directory" USING btree ("status","status_changed_at","user_id");--> statement-breakpoint
CREATE INDEX "user_directory_email_idx" ON "user_directory" USING btree ("status","email_key","user_id");--> statement-breakpoint
CREATE INDEX "user_directory_first_name_idx" ON "user_directory" USING btree ("status","first_name_key","user_id");--> statement-breakpoint
CREATE INDEX "user_directory_last_name_idx" ON "user_directory" USING btree ("status","last_name_key","user_id");--> statement-breakpoint
CREATE INDEX "user_directory_organisation_idx" ON "user_directory" USING btree ("status","organisation_key","user_id");--> statement-breakpoint
CREATE INDEX "user_directory_role_idx" ON "user_directory" USING btree ("status","role","user_id");--> statement-breakpoint
-- Search by part of a name, email or organisation: trigrams for terms of 3 or more characters.
CREATE INDEX "user_directory_search_idx" ON "user_directory" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The projection's row for some users, from users and accounts (insert or replace).
CREATE FUNCTION user_directory_refresh(p_user_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO user_directory AS d (
    user_id, account_id, status, email, first_name, last_name, role, organisation_name, added_by,
    removed_by, kyc_status, mfa_setup, mfa_confirm, status_changed_at, first_login_at, last_login_at,
    email_key, first_name_key, last_name_key, organisation_key, search_text)
  SELECT u.id, u.account_id, u.status, u.email, u.first_name, u.last_name, u.role, a.organisation_name,
    u.added_by, u.removed_by, u.kyc_status, u.mfa_setup, u.mfa_confirm, u.status_changed_at,
    u.first_login_at, u.last_login_at,
    lower(u.email), lower(coalesce(u.first_name, '')), lower(coalesce(u.last_name, '')),
    lower(coalesce(a.organisation_name, '')),
    lower(concat_ws(' ', u.first_name, u.last_name, u.email, a.organisation_name))
  FROM users u JOIN accounts a ON a.id = u.account_id
  WHERE u.id = ANY (p_user_ids)
  ON CONFLICT (user_id) DO UPDATE SET
    account_id = excluded.account_id, status = excluded.status, email = excluded.email,
    first_name = excluded.first_name, last_name = excluded.last_name, role = excluded.role,
    organisation_name = excluded.organisation_name, added_by = excluded.added_by,
    removed_by = excluded.removed_by, kyc_status = excluded.kyc_status, mfa_setup = excluded.mfa_setup,
    mfa_confirm = excluded.mfa_confirm, status_changed_at = excluded.status_changed_at,
    first_login_at = excluded.first_login_at, last_login_at = excluded.last_login_at,
    email_key = excluded.email_key, first_name_key = excluded.first_name_key,
    last_name_key = excluded.last_name_key, organisation_key = excluded.organisation_key,
    search_text = excluded.search_text
$$;--> statement-breakpoint
CREATE FUNCTION user_directory_on_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM user_directory_refresh(ARRAY[NEW.id]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER user_directory_on_user_insert AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION user_directory_on_user();--> statement-breakpoint
CREATE TRIGGER user_directory_on_user_update AFTER UPDATE OF account_id, status, email, first_name,
  last_name, role, added_by, removed_by, kyc_status, mfa_setup, mfa_confirm, status_changed_at,
  first_login_at, last_login_at ON users
  FOR EACH ROW EXECUTE FUNCTION user_directory_on_user();--> statement-breakpoint
CREATE FUNCTION user_directory_on_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM user_directory_refresh(ARRAY(SELECT id FROM users WHERE account_id = NEW.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER user_directory_on_account_update AFTER UPDATE OF organisation_name ON accounts
  FOR EACH ROW WHEN (OLD.organisation_name IS DISTINCT FROM NEW.organisation_name)
  EXECUTE FUNCTION user_directory_on_account();--> statement-breakpoint
-- The tab counts, exact: every status change moves one user from one count to another.
CREATE FUNCTION user_status_counts_on_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE user_status_counts SET count = count - 1 WHERE status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO user_status_counts (status, count) VALUES (NEW.status, 1)
      ON CONFLICT (status) DO UPDATE SET count = user_status_counts.count + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER user_status_counts_on_insert_delete AFTER INSERT OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION user_status_counts_on_user();--> statement-breakpoint
CREATE TRIGGER user_status_counts_on_update AFTER UPDATE OF status ON users
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION user_status_counts_on_user();--> statement-breakpoint
INSERT INTO user_status_counts (status, count)
  SELECT s.status, (SELECT count(*) FROM users u WHERE u.status = s.status)
  FROM (VALUES ('ACTIVE'), ('PENDING'), ('REMOVED')) AS s(status);--> statement-breakpoint
SELECT user_directory_refresh(ARRAY(SELECT id FROM users));--> statement-breakpoint
-- A status change stamps its time, whichever code makes it.
CREATE FUNCTION users_status_changed_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.status_changed_at := now();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER users_status_changed_at BEFORE UPDATE OF status ON users
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION users_status_changed_at();--> statement-breakpoint
-- The audit log is append-only: no UPDATE, DELETE or TRUNCATE, whoever asks.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();