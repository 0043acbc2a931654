CREATE TABLE "credit_bundles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rate_plan_id" uuid NOT NULL,
	"credits" integer NOT NULL,
	"price_usd_cents" integer NOT NULL,
	"sort_order" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"type" text NOT NULL,
	"tier" text NOT NULL,
	"name" text NOT NULL,
	"product_id" text,
	"short_description" text NOT NULL,
	"full_description" text NOT NULL,
	"sort_order" integer NOT NULL,
	"fee_gbp_minor" integer NOT NULL,
	"qnt_price" numeric(78, 0),
	"credit_price_usd_cents" integer,
	"upfront_months" integer,
	"payment_methods" text[] NOT NULL,
	"applications" integer NOT NULL,
	"tokens" integer NOT NULL,
	"bridges" integer NOT NULL,
	"blockchains" integer NOT NULL,
	"mainnets" integer NOT NULL,
	"testnets" integer NOT NULL,
	"rate_limit" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rate_plans_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "credit_bundles" ADD CONSTRAINT "credit_bundles_rate_plan_id_rate_plans_id_fk" FOREIGN KEY ("rate_plan_id") REFERENCES "public"."rate_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_bundles_plan_credits_idx" ON "credit_bundles" USING btree ("rate_plan_id","credits");