-- Issue 33 (staff console II) §2: the application list's projection. See packages/db/src/schema/application-directory.ts.
-- It also carries the schema changes the other parts of issue 33 made meanwhile (one migration number
-- for the issue's work in progress): refunds (bank-transfer refunds), plan terms, orders' indexes...
CREATE TABLE "application_directory" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"name" text NOT NULL,
	"client_id" text NOT NULL,
	"application_type" text NOT NULL,
	"role_name" text NOT NULL,
	"owner_user_id" uuid,
	"owner_email" text,
	"owner_name" text,
	"organisation_name" text,
	"created_at" timestamp with time zone NOT NULL,
	"name_key" text COLLATE "C" NOT NULL,
	"owner_key" text COLLATE "C" NOT NULL,
	"search_text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "application_list_counts" (
	"network_id" uuid NOT NULL,
	"status" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "application_list_counts_network_id_status_pk" PRIMARY KEY("network_id","status")
);
--> statement-breakpoint
CREATE TABLE "application_network_directory" (
	"network_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"name_key" text COLLATE "C" NOT NULL,
	"owner_key" text COLLATE "C" NOT NULL,
	"search_text" text NOT NULL,
	CONSTRAINT "application_network_directory_network_id_application_id_pk" PRIMARY KEY("network_id","application_id")
);
--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "intent_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "role_name" text DEFAULT 'DEVELOPER' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_plans" ADD COLUMN "terms" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "terms" jsonb;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "method" text DEFAULT 'FIAT' NOT NULL;--> statement-breakpoint
ALTER TABLE "application_directory" ADD CONSTRAINT "application_directory_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_network_directory" ADD CONSTRAINT "application_network_directory_link_fk" FOREIGN KEY ("application_id","network_id") REFERENCES "public"."application_networks"("application_id","network_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "private_networks_status_created_idx" ON "private_networks" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "account_plans_rate_plan_idx" ON "account_plans" USING btree ("rate_plan_id");--> statement-breakpoint
CREATE INDEX "account_plans_next_rate_plan_idx" ON "account_plans" USING btree ("next_rate_plan_id");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_rate_plan_idx" ON "orders" USING btree ("rate_plan_id");--> statement-breakpoint
CREATE INDEX "orders_credit_bundle_idx" ON "orders" USING btree ("credit_bundle_id");--> statement-breakpoint
-- Keyset indexes: each sortable column alone (every status) and led by the status (a filter); the
-- same led by the network in application_network_directory (the network filter).
CREATE INDEX "application_directory_created_idx" ON "application_directory" USING btree ("created_at","application_id");--> statement-breakpoint
CREATE INDEX "application_directory_status_created_idx" ON "application_directory" USING btree ("status","created_at","application_id");--> statement-breakpoint
CREATE INDEX "application_directory_name_idx" ON "application_directory" USING btree ("name_key","application_id");--> statement-breakpoint
CREATE INDEX "application_directory_status_name_idx" ON "application_directory" USING btree ("status","name_key","application_id");--> statement-breakpoint
CREATE INDEX "application_directory_owner_idx" ON "application_directory" USING btree ("owner_key","application_id");--> statement-breakpoint
CREATE INDEX "application_directory_status_owner_idx" ON "application_directory" USING btree ("status","owner_key","application_id");--> statement-breakpoint
CREATE INDEX "application_directory_owner_user_idx" ON "application_directory" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "application_directory_search_idx" ON "application_directory" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "application_network_directory_created_idx" ON "application_network_directory" USING btree ("network_id","created_at","application_id");--> statement-breakpoint
CREATE INDEX "application_network_directory_status_created_idx" ON "application_network_directory" USING btree ("network_id","status","created_at","application_id");--> statement-breakpoint
CREATE INDEX "application_network_directory_name_idx" ON "application_network_directory" USING btree ("network_id","name_key","application_id");--> statement-breakpoint
CREATE INDEX "application_network_directory_status_name_idx" ON "application_network_directory" USING btree ("network_id","status","name_key","application_id");--> statement-breakpoint
CREATE INDEX "application_network_directory_owner_idx" ON "application_network_directory" USING btree ("network_id","owner_key","application_id");--> statement-breakpoint
CREATE INDEX "application_network_directory_status_owner_idx" ON "application_network_directory" USING btree ("network_id","status","owner_key","application_id");--> statement-breakpoint
CREATE INDEX "application_network_directory_search_idx" ON "application_network_directory" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The foreign key's cascade and the refresh below find an application's network rows by it.
CREATE INDEX "application_network_directory_application_idx" ON "application_network_directory" USING btree ("application_id","network_id");--> statement-breakpoint
-- The projection's row for some applications (insert or replace), and their network rows' copies.
-- The owner is the application's creator (the user it was registered by or created for by staff),
-- else — the creator gone — the account's owner; the status and organisation are the account's.
CREATE FUNCTION application_directory_refresh(p_application_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO application_directory AS d (
    application_id, account_id, status, name, client_id, application_type, role_name, owner_user_id,
    owner_email, owner_name, organisation_name, created_at, name_key, owner_key, search_text)
  SELECT a.id, a.account_id, coalesce(ad.status, 'ACTIVE'), a.name, a.client_id, a.application_type,
    a.role_name, coalesce(u.id, ad.owner_user_id), coalesce(u.email, ad.owner_email),
    CASE WHEN u.id IS NULL THEN ad.owner_name ELSE nullif(concat_ws(' ', u.first_name, u.last_name), '') END,
    ad.organisation_name, a.created_at,
    lower(a.name), lower(coalesce(u.email, ad.owner_email, '')),
    lower(concat_ws(' ', a.name, a.client_id, coalesce(u.email, ad.owner_email)))
  FROM applications a
  LEFT JOIN users u ON u.id = a.created_by
  LEFT JOIN account_directory ad ON ad.account_id = a.account_id
  WHERE a.id = ANY (p_application_ids)
  ON CONFLICT (application_id) DO UPDATE SET
    account_id = excluded.account_id, status = excluded.status, name = excluded.name,
    client_id = excluded.client_id, application_type = excluded.application_type,
    role_name = excluded.role_name, owner_user_id = excluded.owner_user_id,
    owner_email = excluded.owner_email, owner_name = excluded.owner_name,
    organisation_name = excluded.organisation_name, created_at = excluded.created_at,
    name_key = excluded.name_key, owner_key = excluded.owner_key, search_text = excluded.search_text;
  UPDATE application_network_directory n
    SET status = d.status, created_at = d.created_at, name_key = d.name_key, owner_key = d.owner_key,
      search_text = d.search_text
    FROM application_directory d
    WHERE n.application_id = ANY (p_application_ids) AND d.application_id = n.application_id
      AND (n.status, n.created_at, n.name_key, n.owner_key, n.search_text)
        IS DISTINCT FROM (d.status, d.created_at, d.name_key, d.owner_key, d.search_text);
END $$;--> statement-breakpoint
CREATE FUNCTION application_directory_on_application() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM application_directory_refresh(ARRAY[NEW.id]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER application_directory_on_application_insert AFTER INSERT ON applications
  FOR EACH ROW EXECUTE FUNCTION application_directory_on_application();--> statement-breakpoint
CREATE TRIGGER application_directory_on_application_update AFTER UPDATE OF account_id, name, client_id,
  application_type, role_name, created_by, created_at ON applications
  FOR EACH ROW EXECUTE FUNCTION application_directory_on_application();--> statement-breakpoint
-- An application's network: its row of the network filter, copied from the projection's.
CREATE FUNCTION application_directory_on_network_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO application_network_directory (network_id, application_id, status, created_at, name_key, owner_key, search_text)
    SELECT NEW.network_id, d.application_id, d.status, d.created_at, d.name_key, d.owner_key, d.search_text
    FROM application_directory d WHERE d.application_id = NEW.application_id
    ON CONFLICT (network_id, application_id) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER application_directory_on_network_link AFTER INSERT ON application_networks
  FOR EACH ROW EXECUTE FUNCTION application_directory_on_network_link();--> statement-breakpoint
-- The account's status, organisation or owner changed (account_directory follows accounts, users
-- and plans through migration 0019's triggers): its applications' rows follow it.
CREATE FUNCTION application_directory_on_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM application_directory_refresh(ARRAY(SELECT id FROM applications WHERE account_id = NEW.account_id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER application_directory_on_account_update AFTER UPDATE ON account_directory
  FOR EACH ROW WHEN ((OLD.status, OLD.organisation_name, OLD.owner_user_id, OLD.owner_email, OLD.owner_name)
    IS DISTINCT FROM (NEW.status, NEW.organisation_name, NEW.owner_user_id, NEW.owner_email, NEW.owner_name))
  EXECUTE FUNCTION application_directory_on_account();--> statement-breakpoint
-- An owner renamed or given another address: the applications shown with them.
CREATE FUNCTION application_directory_on_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM application_directory_refresh(
    ARRAY(SELECT application_id FROM application_directory WHERE owner_user_id = NEW.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER application_directory_on_owner_update AFTER UPDATE OF email, first_name, last_name ON users
  FOR EACH ROW WHEN ((OLD.email, OLD.first_name, OLD.last_name) IS DISTINCT FROM (NEW.email, NEW.first_name, NEW.last_name))
  EXECUTE FUNCTION application_directory_on_owner();--> statement-breakpoint
-- The list's totals per status, exact: every insert, delete and status change of a row moves one,
-- for every network (the nil UUID) from application_directory, per network from its rows.
CREATE FUNCTION application_list_counts_move(p_network_id uuid, p_status text, p_by bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO application_list_counts (network_id, status, count) VALUES (p_network_id, p_status, p_by)
    ON CONFLICT (network_id, status) DO UPDATE SET count = application_list_counts.count + p_by
$$;--> statement-breakpoint
CREATE FUNCTION application_list_counts_on_directory() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM application_list_counts_move('00000000-0000-0000-0000-000000000000', OLD.status, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM application_list_counts_move('00000000-0000-0000-0000-000000000000', NEW.status, 1);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION application_list_counts_on_network_directory() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM application_list_counts_move(OLD.network_id, OLD.status, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM application_list_counts_move(NEW.network_id, NEW.status, 1);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER application_list_counts_on_insert_delete AFTER INSERT OR DELETE ON application_directory
  FOR EACH ROW EXECUTE FUNCTION application_list_counts_on_directory();--> statement-breakpoint
CREATE TRIGGER application_list_counts_on_update AFTER UPDATE OF status ON application_directory
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION application_list_counts_on_directory();--> statement-breakpoint
CREATE TRIGGER application_list_counts_on_network_insert_delete AFTER INSERT OR DELETE ON application_network_directory
  FOR EACH ROW EXECUTE FUNCTION application_list_counts_on_network_directory();--> statement-breakpoint
CREATE TRIGGER application_list_counts_on_network_update AFTER UPDATE OF status ON application_network_directory
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION application_list_counts_on_network_directory();--> statement-breakpoint
SELECT application_directory_refresh(ARRAY(SELECT id FROM applications));--> statement-breakpoint
INSERT INTO application_network_directory (network_id, application_id, status, created_at, name_key, owner_key, search_text)
  SELECT an.network_id, d.application_id, d.status, d.created_at, d.name_key, d.owner_key, d.search_text
  FROM application_networks an JOIN application_directory d ON d.application_id = an.application_id;--> statement-breakpoint
-- Issue 33 §3: what an account bought stays with it until it renews. The plans in force and the
-- plan orders placed so far take their tier's terms as they are now (null stays "read the tier").
UPDATE "account_plans" ap SET "terms" = jsonb_build_object(
    'applications', rp.applications, 'tokens', rp.tokens, 'bridges', rp.bridges,
    'blockchains', rp.blockchains, 'mainnets', rp.mainnets, 'testnets', rp.testnets,
    'rateLimit', rp.rate_limit, 'creditPriceUsdCents', rp.credit_price_usd_cents)
  FROM "rate_plans" rp WHERE rp.id = ap.rate_plan_id AND ap.terms IS NULL;--> statement-breakpoint
UPDATE "orders" o SET "terms" = jsonb_build_object(
    'applications', rp.applications, 'tokens', rp.tokens, 'bridges', rp.bridges,
    'blockchains', rp.blockchains, 'mainnets', rp.mainnets, 'testnets', rp.testnets,
    'rateLimit', rp.rate_limit, 'creditPriceUsdCents', rp.credit_price_usd_cents)
  FROM "rate_plans" rp WHERE rp.id = o.rate_plan_id AND o.kind IN ('PLAN', 'RENEWAL') AND o.terms IS NULL;
