CREATE TABLE "staff_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"message" text NOT NULL,
	"record_type" text,
	"record_id" text,
	"dedupe_key" text,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	CONSTRAINT "staff_alerts_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
ALTER TABLE "staff_alerts" ADD CONSTRAINT "staff_alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_alerts_raised_idx" ON "staff_alerts" USING btree ("raised_at");--> statement-breakpoint
CREATE INDEX "staff_alerts_open_idx" ON "staff_alerts" USING btree ("raised_at") WHERE acknowledged_at is null;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "confirmed_block" bigint;--> statement-breakpoint
-- A cursor from before this migration: every block it read may have been told confirmed already.
UPDATE "chain_cursors" SET "confirmed_block" = "block_number";--> statement-breakpoint
ALTER TABLE "qnt_transfers" ADD COLUMN "lost_to_block" bigint;--> statement-breakpoint
ALTER TABLE "qnt_transfers" ADD COLUMN "reversals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "qnt_transfers_lost_idx" ON "qnt_transfers" USING btree ("chain_id","lost_to_block") WHERE lost_to_block is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reversals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "plan_before" jsonb;
