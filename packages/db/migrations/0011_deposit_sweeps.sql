ALTER TABLE "deposit_sweeps" ADD COLUMN "gas_tx_hash" text;--> statement-breakpoint
ALTER TABLE "deposit_sweeps" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_sweeps_in_flight_idx" ON "deposit_sweeps" USING btree ("chain_id","derivation_index") WHERE status in ('PENDING', 'SENT');