-- The credits move into the one ledger (ledger_entries, ledger_balances): every credit
-- transaction becomes an entry with its running balance, an account whose balance was set
-- without transactions gets one opening entry for the difference, and every account gets its
-- CREDIT balance row. Then the old table and column go.
INSERT INTO "ledger_entries" ("account_id", "asset", "kind", "amount", "balance_after", "reason", "reference", "created_at")
SELECT "account_id", 'CREDIT',
  CASE WHEN "reference" LIKE 'refund:%' THEN 'refund' WHEN "amount" < 0 THEN 'consume' ELSE 'grant' END,
  "amount",
  sum("amount") OVER (PARTITION BY "account_id" ORDER BY "created_at", "id"),
  "reason", "reference", "created_at"
FROM "credit_transactions"
ORDER BY "created_at", "id";--> statement-breakpoint
INSERT INTO "ledger_entries" ("account_id", "asset", "kind", "amount", "balance_after", "reason", "reference")
SELECT a."id", 'CREDIT', 'grant', a."credits" - coalesce(t."total", 0), a."credits", 'Opening balance', 'opening:credit:' || a."id"
FROM "accounts" a
LEFT JOIN (SELECT "account_id", sum("amount") AS "total" FROM "credit_transactions" GROUP BY "account_id") t ON t."account_id" = a."id"
WHERE a."credits" <> coalesce(t."total", 0);--> statement-breakpoint
INSERT INTO "ledger_balances" ("account_id", "asset", "balance")
SELECT "id", 'CREDIT', "credits" FROM "accounts";--> statement-breakpoint
DROP TABLE "credit_transactions" CASCADE;--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "credits";
