CREATE TABLE "account_plans" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"rate_plan_id" uuid NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"status_before_pending" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"period_end" timestamp with time zone,
	"upfront_months" integer,
	"trial_ends_at" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"next_rate_plan_id" uuid,
	"pending_order_id" uuid,
	"last_payment_method" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_minor" integer NOT NULL,
	"vat_minor" integer DEFAULT 0 NOT NULL,
	"amount_minor" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"order_id" uuid,
	"number" text,
	"status" text NOT NULL,
	"currency" text DEFAULT 'GBP' NOT NULL,
	"subtotal_minor" integer NOT NULL,
	"vat_minor" integer DEFAULT 0 NOT NULL,
	"total_minor" integer NOT NULL,
	"amount_paid_minor" integer DEFAULT 0 NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "invoices_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid,
	"idempotency_key" text NOT NULL,
	"reference" text NOT NULL,
	"kind" text NOT NULL,
	"rate_plan_id" uuid,
	"upfront_months" integer,
	"credit_bundle_id" uuid,
	"credits" integer DEFAULT 0 NOT NULL,
	"payment_method" text NOT NULL,
	"status" text DEFAULT 'AWAITING_PAYMENT' NOT NULL,
	"fee_gbp_minor" integer DEFAULT 0 NOT NULL,
	"bundle_usd_cents" integer DEFAULT 0 NOT NULL,
	"usd_per_gbp" text NOT NULL,
	"rate_at" timestamp with time zone NOT NULL,
	"total_gbp_minor" integer NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"due_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_reference_unique" UNIQUE("reference"),
	CONSTRAINT "orders_account_key_unique" UNIQUE("account_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"method" text NOT NULL,
	"external_id" text NOT NULL,
	"amount_gbp_minor" integer NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"recorded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "current_plan" text;--> statement-breakpoint
ALTER TABLE "account_plans" ADD CONSTRAINT "account_plans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_plans" ADD CONSTRAINT "account_plans_rate_plan_id_rate_plans_id_fk" FOREIGN KEY ("rate_plan_id") REFERENCES "public"."rate_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_plans" ADD CONSTRAINT "account_plans_next_rate_plan_id_rate_plans_id_fk" FOREIGN KEY ("next_rate_plan_id") REFERENCES "public"."rate_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_rate_plan_id_rate_plans_id_fk" FOREIGN KEY ("rate_plan_id") REFERENCES "public"."rate_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_credit_bundle_id_credit_bundles_id_fk" FOREIGN KEY ("credit_bundle_id") REFERENCES "public"."credit_bundles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_plans_period_end_idx" ON "account_plans" USING btree ("period_end");--> statement-breakpoint
CREATE INDEX "account_plans_trial_end_idx" ON "account_plans" USING btree ("trial_ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_position_idx" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE INDEX "invoices_account_idx" ON "invoices" USING btree ("account_id","issued_at");--> statement-breakpoint
CREATE INDEX "orders_account_idx" ON "orders" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_method_external_idx" ON "payments" USING btree ("method","external_id");--> statement-breakpoint
CREATE INDEX "payments_order_idx" ON "payments" USING btree ("order_id");--> statement-breakpoint
-- The trial plan (never on sale): the allowances of a new account, as the defaults were before.
INSERT INTO "rate_plans" ("code", "type", "tier", "name", "product_id", "short_description", "full_description", "sort_order", "fee_gbp_minor", "payment_methods", "applications", "tokens", "bridges", "blockchains", "mainnets", "testnets", "rate_limit", "is_active")
VALUES ('trial', 'TRIAL', 'standard', 'Trial', NULL, 'Try the platform on testnets.', 'Every testnet, a few applications and tokens, and trial credits to deploy them. Upgrade to use mainnets.', 0, 0, '{}', 3, 5, 2, 0, 0, 10, 25, false)
ON CONFLICT ("code") DO NOTHING;--> statement-breakpoint
-- Every existing account starts its trial now (30 days, docs/decisions.md).
INSERT INTO "account_plans" ("account_id", "rate_plan_id", "status", "status_reason", "started_at", "trial_ends_at")
SELECT a."id", (SELECT "id" FROM "rate_plans" WHERE "code" = 'trial'), 'ACTIVE', 'TRIAL', a."created_at", greatest(a."created_at", now()) + interval '30 days'
FROM "accounts" a
ON CONFLICT ("account_id") DO NOTHING;--> statement-breakpoint
CREATE VIEW "account_allowances" AS
SELECT ap."account_id", ap."status",
  (ap."status" = 'ACTIVE' OR (ap."status" = 'PENDING' AND ap."status_before_pending" = 'ACTIVE')) AS "in_service",
  rp."applications", rp."tokens", rp."bridges", rp."blockchains", rp."mainnets", rp."testnets", rp."rate_limit"
FROM "account_plans" ap JOIN "rate_plans" rp ON rp."id" = ap."rate_plan_id";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "plan_name";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "plan_status";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "plan_renews_at";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "blockchain_allowance";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "mainnets_allowed";