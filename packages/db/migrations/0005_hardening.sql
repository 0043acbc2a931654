CREATE TABLE "session_revocations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sub" text NOT NULL,
	"origin_jti" text,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"sealed_private_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network_id" uuid NOT NULL,
	"from_address" text NOT NULL,
	"nonce" bigint NOT NULL,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"reference" text NOT NULL,
	"status" text DEFAULT 'SIGNED' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platform_transactions" ADD CONSTRAINT "platform_transactions_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_revocations_expires_idx" ON "session_revocations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "session_revocations_revoked_idx" ON "session_revocations" USING btree ("revoked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_transactions_hash_idx" ON "platform_transactions" USING btree ("network_id","tx_hash");--> statement-breakpoint
CREATE INDEX "platform_transactions_sender_idx" ON "platform_transactions" USING btree ("network_id","from_address","nonce");--> statement-breakpoint
CREATE INDEX "platform_transactions_reference_idx" ON "platform_transactions" USING btree ("reference");