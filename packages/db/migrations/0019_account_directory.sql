-- Issue 33 (staff console II): the account list's projection. See packages/db/src/schema/staff-console.ts.
CREATE TABLE "account_directory" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"organisation_name" text,
	"owner_user_id" uuid,
	"owner_email" text,
	"owner_name" text,
	"current_plan" text,
	"plan_status" text,
	"plan_expiry" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"organisation_key" text COLLATE "C" NOT NULL,
	"plan_key" text COLLATE "C" NOT NULL,
	"search_text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_status_counts" (
	"status" text PRIMARY KEY NOT NULL,
	"count" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_directory" ADD CONSTRAINT "account_directory_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Keyset indexes: each sortable column alone (All statuses) and led by the status (a filter).
CREATE INDEX "account_directory_created_idx" ON "account_directory" USING btree ("created_at","account_id");--> statement-breakpoint
CREATE INDEX "account_directory_status_created_idx" ON "account_directory" USING btree ("status","created_at","account_id");--> statement-breakpoint
CREATE INDEX "account_directory_organisation_idx" ON "account_directory" USING btree ("organisation_key","account_id");--> statement-breakpoint
CREATE INDEX "account_directory_status_organisation_idx" ON "account_directory" USING btree ("status","organisation_key","account_id");--> statement-breakpoint
CREATE INDEX "account_directory_plan_idx" ON "account_directory" USING btree ("plan_key","account_id");--> statement-breakpoint
CREATE INDEX "account_directory_status_plan_idx" ON "account_directory" USING btree ("status","plan_key","account_id");--> statement-breakpoint
CREATE INDEX "account_directory_search_idx" ON "account_directory" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The projection's row for some accounts (insert or replace).
CREATE FUNCTION account_directory_refresh(p_account_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO account_directory AS d (
    account_id, status, organisation_name, owner_user_id, owner_email, owner_name, current_plan,
    plan_status, plan_expiry, last_login_at, created_at, organisation_key, plan_key, search_text)
  SELECT a.id,
    CASE
      WHEN a.status = 'REMOVED' THEN 'REMOVED'
      WHEN NOT EXISTS (SELECT 1 FROM users u WHERE u.account_id = a.id AND u.status = 'ACTIVE')
        AND EXISTS (SELECT 1 FROM users u WHERE u.account_id = a.id AND u.status = 'PENDING') THEN 'PENDING'
      ELSE 'ACTIVE'
    END,
    a.organisation_name, o.id, o.email, nullif(concat_ws(' ', o.first_name, o.last_name), ''),
    rp.name, ap.status, coalesce(ap.period_end, ap.trial_ends_at),
    (SELECT max(u.last_login_at) FROM users u WHERE u.account_id = a.id),
    a.created_at,
    lower(coalesce(a.organisation_name, '')), lower(coalesce(rp.name, '')),
    lower(concat_ws(' ', a.organisation_name, o.email, o.first_name, o.last_name, rp.name))
  FROM accounts a
  LEFT JOIN LATERAL (
    SELECT u.id, u.email, u.first_name, u.last_name FROM users u
    WHERE u.account_id = a.id ORDER BY u.created_at, u.id LIMIT 1
  ) o ON true
  LEFT JOIN account_plans ap ON ap.account_id = a.id
  LEFT JOIN rate_plans rp ON rp.id = ap.rate_plan_id
  WHERE a.id = ANY (p_account_ids)
  ON CONFLICT (account_id) DO UPDATE SET
    status = excluded.status, organisation_name = excluded.organisation_name,
    owner_user_id = excluded.owner_user_id, owner_email = excluded.owner_email,
    owner_name = excluded.owner_name, current_plan = excluded.current_plan,
    plan_status = excluded.plan_status, plan_expiry = excluded.plan_expiry,
    last_login_at = excluded.last_login_at, created_at = excluded.created_at,
    organisation_key = excluded.organisation_key, plan_key = excluded.plan_key,
    search_text = excluded.search_text
$$;--> statement-breakpoint
CREATE FUNCTION account_directory_on_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM account_directory_refresh(ARRAY[NEW.id]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER account_directory_on_account_insert AFTER INSERT ON accounts
  FOR EACH ROW EXECUTE FUNCTION account_directory_on_account();--> statement-breakpoint
CREATE TRIGGER account_directory_on_account_update AFTER UPDATE OF organisation_name, status ON accounts
  FOR EACH ROW EXECUTE FUNCTION account_directory_on_account();--> statement-breakpoint
CREATE FUNCTION account_directory_on_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM account_directory_refresh(ARRAY[OLD.account_id]);
  ELSIF TG_OP = 'UPDATE' AND OLD.account_id IS DISTINCT FROM NEW.account_id THEN
    PERFORM account_directory_refresh(ARRAY[OLD.account_id, NEW.account_id]);
  ELSE
    PERFORM account_directory_refresh(ARRAY[NEW.account_id]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER account_directory_on_user_change AFTER INSERT OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION account_directory_on_user();--> statement-breakpoint
CREATE TRIGGER account_directory_on_user_update AFTER UPDATE OF account_id, status, email, first_name,
  last_name, last_login_at ON users
  FOR EACH ROW EXECUTE FUNCTION account_directory_on_user();--> statement-breakpoint
CREATE FUNCTION account_directory_on_plan() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM account_directory_refresh(ARRAY[NEW.account_id]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER account_directory_on_plan_change AFTER INSERT OR UPDATE OF rate_plan_id, status,
  period_end, trial_ends_at ON account_plans
  FOR EACH ROW EXECUTE FUNCTION account_directory_on_plan();--> statement-breakpoint
CREATE FUNCTION account_directory_on_rate_plan() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM account_directory_refresh(ARRAY(SELECT account_id FROM account_plans WHERE rate_plan_id = NEW.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER account_directory_on_rate_plan_rename AFTER UPDATE OF name ON rate_plans
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION account_directory_on_rate_plan();--> statement-breakpoint
-- The list's counts per status, exact: every insert, delete and status change moves one.
CREATE FUNCTION account_status_counts_on_directory() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE account_status_counts SET count = count - 1 WHERE status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO account_status_counts (status, count) VALUES (NEW.status, 1)
      ON CONFLICT (status) DO UPDATE SET count = account_status_counts.count + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER account_status_counts_on_insert_delete AFTER INSERT OR DELETE ON account_directory
  FOR EACH ROW EXECUTE FUNCTION account_status_counts_on_directory();--> statement-breakpoint
CREATE TRIGGER account_status_counts_on_update AFTER UPDATE OF status ON account_directory
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION account_status_counts_on_directory();--> statement-breakpoint
INSERT INTO account_status_counts (status, count)
  VALUES ('ACTIVE', 0), ('PENDING', 0), ('REMOVED', 0);--> statement-breakpoint
SELECT account_directory_refresh(ARRAY(SELECT id FROM accounts));