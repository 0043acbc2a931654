CREATE TABLE "credit_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"reference" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_transactions_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "token_tiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network_id" uuid NOT NULL,
	"token_type" text NOT NULL,
	"tier_type" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"deployment_credits" integer,
	"bytecode_credits" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"external_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"created_by" uuid,
	"network_id" uuid NOT NULL,
	"tier_id" uuid NOT NULL,
	"token_type" text NOT NULL,
	"tier_type" text NOT NULL,
	"name" text NOT NULL,
	"unit" text NOT NULL,
	"decimals" integer DEFAULT 0 NOT NULL,
	"initial_supply" numeric(78, 0) DEFAULT '0' NOT NULL,
	"max_supply" numeric(78, 0),
	"remintable" boolean DEFAULT false NOT NULL,
	"supply_holder_address" text,
	"minter_address" text,
	"owner_address" text,
	"token_uri" text,
	"deployment_type" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"deployer_address" text,
	"tx_hash" text,
	"contract_address" text,
	"block_number" numeric(78, 0),
	"credits_charged" integer DEFAULT 0 NOT NULL,
	"failure_reason" text,
	"deployed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tokens_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD CONSTRAINT "credit_transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_tiers" ADD CONSTRAINT "token_tiers_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_tier_id_token_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."token_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_transactions_account_idx" ON "credit_transactions" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "token_tiers_location_idx" ON "token_tiers" USING btree ("network_id","token_type","tier_type");--> statement-breakpoint
CREATE INDEX "tokens_account_idx" ON "tokens" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_network_tx_idx" ON "tokens" USING btree ("network_id","tx_hash");