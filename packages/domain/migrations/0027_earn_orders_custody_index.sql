CREATE INDEX "earn_orders_custody_idx" ON "earn_orders" USING btree ("id") WHERE "earn_orders"."status" in ('holding', 'redeeming', 'redemption_rejected');--> statement-breakpoint
-- The daily yield job rewrites every order in custody once a day (paid days, profit); none of those
-- columns is indexed, so with room left on each page the new row version stays on the same page (a
-- HOT update) and none of the table's indexes takes a new entry. Applies to pages written from now on.
ALTER TABLE "earn_orders" SET (fillfactor = 80);
