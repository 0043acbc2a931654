CREATE TABLE "chain_blocks" (
	"follower" text NOT NULL,
	"chain_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	CONSTRAINT "chain_blocks_follower_chain_id_block_number_pk" PRIMARY KEY("follower","chain_id","block_number")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"follower" text NOT NULL,
	"chain_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_cursors_follower_chain_id_pk" PRIMARY KEY("follower","chain_id")
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"derivation_index" integer PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"account_id" uuid,
	"allocated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_address_unique" UNIQUE("address"),
	CONSTRAINT "deposit_addresses_account_id_unique" UNIQUE("account_id")
);
--> statement-breakpoint
CREATE TABLE "deposit_sweeps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" bigint NOT NULL,
	"derivation_index" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"tx_hash" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qnt_payments" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"deposit_address" text NOT NULL,
	"amount_due" numeric(78, 0) NOT NULL,
	"gbp_per_qnt" text NOT NULL,
	"rate_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'NEW' NOT NULL,
	"reason" text,
	"paid" numeric(78, 0) DEFAULT 0 NOT NULL,
	"reported_tx_hashes" text[] DEFAULT '{}'::text[] NOT NULL,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qnt_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" bigint NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "qnt_transfers_log_unique" UNIQUE("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "qnt_token_address" text;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_sweeps" ADD CONSTRAINT "deposit_sweeps_derivation_index_deposit_addresses_derivation_index_fk" FOREIGN KEY ("derivation_index") REFERENCES "public"."deposit_addresses"("derivation_index") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qnt_payments" ADD CONSTRAINT "qnt_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qnt_payments" ADD CONSTRAINT "qnt_payments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qnt_transfers" ADD CONSTRAINT "qnt_transfers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deposit_addresses_unallocated_idx" ON "deposit_addresses" USING btree ("derivation_index") WHERE account_id is null;--> statement-breakpoint
CREATE INDEX "deposit_sweeps_status_idx" ON "deposit_sweeps" USING btree ("status");--> statement-breakpoint
CREATE INDEX "qnt_payments_open_idx" ON "qnt_payments" USING btree ("account_id","status","created_at");--> statement-breakpoint
CREATE INDEX "qnt_transfers_account_idx" ON "qnt_transfers" USING btree ("account_id","seen_at");--> statement-breakpoint
CREATE INDEX "qnt_transfers_status_idx" ON "qnt_transfers" USING btree ("chain_id","status","block_number");