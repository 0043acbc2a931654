CREATE TABLE "beta_features" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"feature_key" text NOT NULL,
	"access" text DEFAULT 'OPEN' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "beta_features_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "beta_invitations" (
	"beta_feature_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "beta_invitations_beta_feature_id_account_id_pk" PRIMARY KEY("beta_feature_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "beta_optins" (
	"beta_feature_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"opted_in_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "beta_optins_beta_feature_id_account_id_pk" PRIMARY KEY("beta_feature_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "idp_codes" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "beta_invitations" ADD CONSTRAINT "beta_invitations_beta_feature_id_beta_features_id_fk" FOREIGN KEY ("beta_feature_id") REFERENCES "public"."beta_features"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beta_invitations" ADD CONSTRAINT "beta_invitations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beta_invitations" ADD CONSTRAINT "beta_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beta_optins" ADD CONSTRAINT "beta_optins_beta_feature_id_beta_features_id_fk" FOREIGN KEY ("beta_feature_id") REFERENCES "public"."beta_features"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beta_optins" ADD CONSTRAINT "beta_optins_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beta_optins" ADD CONSTRAINT "beta_optins_opted_in_by_users_id_fk" FOREIGN KEY ("opted_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "beta_invitations_account_idx" ON "beta_invitations" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "beta_optins_account_idx" ON "beta_optins" USING btree ("account_id");--> statement-breakpoint
-- Bridges are in Connect Beta until their own issue: every deployment lists the beta feature, and
-- accounts no longer hold the bridge switch by default (nothing was built behind it to lose).
INSERT INTO "beta_features" ("name", "description", "feature_key", "access") VALUES ('Bridges', 'Move tokens between two networks with a bridge you control. Opting in adds Bridges to your menu while the area is being built.', 'bridge', 'OPEN');--> statement-breakpoint
DELETE FROM "account_features" WHERE "feature" = 'bridge' AND "total" IS NULL;
