CREATE TABLE "application_month_spend" (
	"application_id" uuid NOT NULL,
	"month" date NOT NULL,
	"micro_credits" bigint NOT NULL,
	CONSTRAINT "application_month_spend_application_id_month_pk" PRIMARY KEY("application_id","month")
);
--> statement-breakpoint
CREATE TABLE "gateway_usage_hourly" (
	"application_id" uuid NOT NULL,
	"network_id" uuid NOT NULL,
	"method" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"account_id" uuid NOT NULL,
	"calls" bigint NOT NULL,
	"micro_credits" bigint NOT NULL,
	CONSTRAINT "gateway_usage_hourly_application_id_network_id_method_hour_pk" PRIMARY KEY("application_id","network_id","method","hour")
);
--> statement-breakpoint
CREATE TABLE "usage_alerts" (
	"key" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"source" text NOT NULL,
	"application_id" uuid,
	"network_id" uuid,
	"method" text NOT NULL,
	"method_class" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"billed_hour" timestamp with time zone NOT NULL,
	"calls" bigint NOT NULL,
	"micro_credits" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The daily counts before metering: kept as each day's first hour, method "unmetered", free (0 micro-credits).
INSERT INTO "gateway_usage_hourly" ("application_id", "network_id", "method", "hour", "account_id", "calls", "micro_credits")
SELECT d."application_id", d."network_id", 'unmetered', d."day"::timestamp AT TIME ZONE 'UTC', a."account_id", d."requests", 0
FROM "application_usage_daily" d JOIN "applications" a ON a."id" = d."application_id";--> statement-breakpoint
DROP TABLE "application_usage_daily" CASCADE;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "monthly_cap_micro" bigint;--> statement-breakpoint
ALTER TABLE "gateway_usage_hourly" ADD CONSTRAINT "gateway_usage_hourly_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_usage_hourly" ADD CONSTRAINT "gateway_usage_hourly_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_alerts" ADD CONSTRAINT "usage_alerts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_usage_hourly_account_idx" ON "gateway_usage_hourly" USING btree ("account_id","hour");--> statement-breakpoint
CREATE INDEX "gateway_usage_hourly_hour_idx" ON "gateway_usage_hourly" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "usage_records_account_billed_idx" ON "usage_records" USING btree ("account_id","billed_hour");--> statement-breakpoint
CREATE INDEX "usage_records_account_hour_idx" ON "usage_records" USING btree ("account_id","hour");