-- A record's "history of changes" (issue 5): its audit events, newest first, from an index.
CREATE INDEX "audit_events_entity_idx" ON "audit_events" USING btree ("account_id","entity","entity_id","seq");
