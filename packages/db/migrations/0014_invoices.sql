CREATE TABLE "billing_details" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"postcode" text,
	"country" text NOT NULL,
	"registration_number" text,
	"vat_number" text,
	"vat_number_status" text DEFAULT 'NONE' NOT NULL,
	"vat_checked_at" timestamp with time zone,
	"website" text,
	"telephone" text,
	"email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_closes" (
	"period_end" timestamp with time zone PRIMARY KEY NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"drafted_at" timestamp with time zone,
	"finalised_at" timestamp with time zone,
	"invoices" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"series" text PRIMARY KEY NOT NULL,
	"last" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"number" text NOT NULL,
	"amount_gbp_minor" integer NOT NULL,
	"method" text NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_invoice_id_unique" UNIQUE("invoice_id"),
	CONSTRAINT "receipts_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "invoice_lines" ALTER COLUMN "quantity" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "unit_price" text;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "vat_rate_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "kind" text DEFAULT 'ORDER' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "number_seq" bigint;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "vat_treatment" text DEFAULT 'OUTSIDE_SCOPE' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "vat_rate_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "total_usd_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "usd_per_gbp" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "qnt_amount_wei" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "gbp_per_qnt" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "qnt_rate_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "customer" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "terms_days" integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "usage_cut_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "finalised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "number_seq" bigint;--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipts_account_idx" ON "receipts" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_created_idx" ON "ledger_entries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "invoices_account_number_idx" ON "invoices" USING btree ("account_id","number_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_monthly_period_uq" ON "invoices" USING btree ("account_id","period_end") WHERE kind = 'MONTHLY';--> statement-breakpoint
CREATE INDEX "invoices_status_kind_period_idx" ON "invoices" USING btree ("status","kind","period_end");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_number_seq_unique" UNIQUE("number_seq");--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_number_seq_unique" UNIQUE("number_seq");--> statement-breakpoint
-- Backfill (hand-written): every invoice made before numbering gets its number in the order it was
-- issued; credit notes likewise; the counters start after them.
WITH numbered AS (
	SELECT id, row_number() OVER (ORDER BY issued_at, id) AS seq FROM "invoices" WHERE status <> 'DRAFT'
)
UPDATE "invoices" i SET number_seq = n.seq, number = 'INV-' || lpad(n.seq::text, 6, '0'), finalised_at = i.issued_at
FROM numbered n WHERE n.id = i.id;--> statement-breakpoint
WITH numbered AS (
	SELECT id, row_number() OVER (ORDER BY issued_at, id) AS seq FROM "credit_notes"
)
UPDATE "credit_notes" c SET number_seq = n.seq, number = 'CN-' || lpad(n.seq::text, 6, '0')
FROM numbered n WHERE n.id = c.id;--> statement-breakpoint
UPDATE "invoices" i SET
	updated_at = coalesce(i.paid_at, i.issued_at),
	terms_days = greatest(0, round(extract(epoch FROM (i.due_at - i.issued_at)) / 86400)::int),
	usd_per_gbp = o.usd_per_gbp,
	total_usd_cents = round(i.total_minor * o.usd_per_gbp::numeric)::bigint
FROM "orders" o WHERE o.id = i.order_id;--> statement-breakpoint
INSERT INTO "invoice_counters" (series, last) VALUES
	('INV', (SELECT coalesce(max(number_seq), 0) FROM "invoices")),
	('CN', (SELECT coalesce(max(number_seq), 0) FROM "credit_notes")),
	('RCT', 0);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_numbered_unless_draft" CHECK ((status = 'DRAFT') = (number_seq is null));