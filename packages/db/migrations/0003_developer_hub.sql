CREATE TABLE "account_networks" (
	"account_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"activated_by" uuid,
	"activated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_networks_account_id_network_id_pk" PRIMARY KEY("account_id","network_id")
);
--> statement-breakpoint
CREATE TABLE "application_networks" (
	"application_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	CONSTRAINT "application_networks_application_id_network_id_pk" PRIMARY KEY("application_id","network_id")
);
--> statement-breakpoint
CREATE TABLE "application_secrets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"secret_hash" text NOT NULL,
	"hint" text NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_secrets_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
CREATE TABLE "application_usage_daily" (
	"application_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"day" date NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "application_usage_daily_application_id_network_id_day_pk" PRIMARY KEY("application_id","network_id","day")
);
--> statement-breakpoint
CREATE TABLE "applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"created_by" uuid,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"callback_url" text NOT NULL,
	"application_type" text NOT NULL,
	"testnet_signing" boolean DEFAULT false NOT NULL,
	"client_id" text NOT NULL,
	"signing_service_name" text NOT NULL,
	"signing_key_id" text NOT NULL,
	"signing_public_key" text NOT NULL,
	"signing_private_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applications_client_id_unique" UNIQUE("client_id"),
	CONSTRAINT "applications_signing_key_id_unique" UNIQUE("signing_key_id")
);
--> statement-breakpoint
CREATE TABLE "kyc_applicants" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"applicant_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"check_id" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"document_first_name" text,
	"document_last_name" text,
	"sandbox_outcome" text,
	"reason" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "networks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"network_type" text NOT NULL,
	"technology" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"chain_id" bigint NOT NULL,
	"rpc_url" text,
	"explorer_url" text,
	"rate_limit" integer DEFAULT 25 NOT NULL,
	"is_local" boolean DEFAULT false NOT NULL,
	"health" text DEFAULT 'NOT_CONFIGURED' NOT NULL,
	"latest_block" bigint,
	"health_checked_at" timestamp with time zone,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "networks_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "private_networks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"created_by" uuid,
	"name" text NOT NULL,
	"environment" text NOT NULL,
	"chain_id" bigint NOT NULL,
	"eip1559" boolean NOT NULL,
	"blocks_for_success" integer NOT NULL,
	"rpc_url" text NOT NULL,
	"token_symbol" text NOT NULL,
	"token_decimals" integer NOT NULL,
	"node_type" text NOT NULL,
	"status" text DEFAULT 'UNDER_REVIEW' NOT NULL,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"removal_requested_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "blockchain_allowance" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "mainnets_allowed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "account_networks" ADD CONSTRAINT "account_networks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_networks" ADD CONSTRAINT "account_networks_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_networks" ADD CONSTRAINT "account_networks_activated_by_users_id_fk" FOREIGN KEY ("activated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_networks" ADD CONSTRAINT "application_networks_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_networks" ADD CONSTRAINT "application_networks_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_secrets" ADD CONSTRAINT "application_secrets_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_usage_daily" ADD CONSTRAINT "application_usage_daily_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_usage_daily" ADD CONSTRAINT "application_usage_daily_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_applicants" ADD CONSTRAINT "kyc_applicants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_checks" ADD CONSTRAINT "kyc_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_networks" ADD CONSTRAINT "private_networks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_networks" ADD CONSTRAINT "private_networks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_secrets_app_idx" ON "application_secrets" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "applications_account_name_idx" ON "applications" USING btree ("account_id","name_key");--> statement-breakpoint
CREATE INDEX "applications_account_idx" ON "applications" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "kyc_checks_user_idx" ON "kyc_checks" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "private_networks_account_idx" ON "private_networks" USING btree ("account_id");