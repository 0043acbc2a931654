-- Issue 30: a sign-in's refresh token insert also removes the user's expired tokens; by user
-- alone the index made that removal read every token the user has. By user and expiry it reads
-- only the expired ones (and still serves every lookup by user).
DROP INDEX "idp_refresh_tokens_sub_idx";--> statement-breakpoint
CREATE INDEX "idp_refresh_tokens_sub_expires_idx" ON "idp_refresh_tokens" USING btree ("sub","expires_at");