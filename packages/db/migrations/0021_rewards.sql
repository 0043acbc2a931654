CREATE TABLE "reward_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"visible_name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"participants" integer NOT NULL,
	"opted_in" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reward_claim_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"claim_id" uuid NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"note" text,
	"actor_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reward_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tracking_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid,
	"address" text NOT NULL,
	"amount_wei" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"network_id" uuid,
	"tx_hash" text,
	"seen_block" bigint,
	"seen_block_hash" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "reward_claims_tracking_code_unique" UNIQUE("tracking_code")
);
--> statement-breakpoint
CREATE TABLE "reward_optins" (
	"campaign_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid,
	"opted_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_optins_campaign_id_account_id_pk" PRIMARY KEY("campaign_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "reward_progress" (
	"task_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"done_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_progress_task_id_account_id_pk" PRIMARY KEY("task_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "reward_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"activity_type" text NOT NULL,
	"threshold" integer DEFAULT 1 NOT NULL,
	"value_wei" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reward_campaigns" ADD CONSTRAINT "reward_campaigns_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_claim_events" ADD CONSTRAINT "reward_claim_events_claim_id_reward_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."reward_claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_claim_events" ADD CONSTRAINT "reward_claim_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_claims" ADD CONSTRAINT "reward_claims_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_claims" ADD CONSTRAINT "reward_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_claims" ADD CONSTRAINT "reward_claims_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_optins" ADD CONSTRAINT "reward_optins_campaign_id_reward_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."reward_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_optins" ADD CONSTRAINT "reward_optins_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_optins" ADD CONSTRAINT "reward_optins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_progress" ADD CONSTRAINT "reward_progress_task_id_reward_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."reward_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_progress" ADD CONSTRAINT "reward_progress_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_progress" ADD CONSTRAINT "reward_progress_campaign_id_reward_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."reward_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_tasks" ADD CONSTRAINT "reward_tasks_campaign_id_reward_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."reward_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_campaigns_status_idx" ON "reward_campaigns" USING btree ("status","start_date");--> statement-breakpoint
CREATE INDEX "reward_claim_events_claim_idx" ON "reward_claim_events" USING btree ("claim_id","id");--> statement-breakpoint
CREATE INDEX "reward_claims_status_idx" ON "reward_claims" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reward_claims_account_idx" ON "reward_claims" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_claims_tx_hash_idx" ON "reward_claims" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "reward_optins_account_idx" ON "reward_optins" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "reward_progress_account_idx" ON "reward_progress" USING btree ("account_id","campaign_id");--> statement-breakpoint
CREATE INDEX "reward_tasks_campaign_idx" ON "reward_tasks" USING btree ("campaign_id","created_at");