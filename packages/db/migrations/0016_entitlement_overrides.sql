-- Entitlements (issue 29 §4): what an account may have is computed by the entitlements module
-- (the plan's allowances with these overrides), so migration 0009's view goes.
DROP VIEW "account_allowances";--> statement-breakpoint
CREATE TABLE "entitlement_overrides" (
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"enabled" boolean,
	"amount" integer,
	"set_by" uuid,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "entitlement_overrides_account_id_key_pk" PRIMARY KEY("account_id","key"),
	CONSTRAINT "entitlement_overrides_one_value" CHECK (num_nonnulls("entitlement_overrides"."enabled", "entitlement_overrides"."amount") = 1),
	CONSTRAINT "entitlement_overrides_amount" CHECK ("entitlement_overrides"."amount" is null or "entitlement_overrides"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "entitlement_overrides" ADD CONSTRAINT "entitlement_overrides_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entitlement_overrides" ADD CONSTRAINT "entitlement_overrides_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;