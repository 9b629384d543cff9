-- Failovers (issue 34): a message that left one of a team's SMS connections for the next one of its
-- route, after a transient or account error. The router's failover recorder
-- (modules/event-endpoints/failover-events.ts) writes them in batches, one statement a submit: the
-- `message.failed_over` events into the outbox, and their count into the team's hourly counters,
-- which the overview adds up like the others (by the hour of the failover, UTC).
ALTER TABLE team_hourly_counts ADD COLUMN failovers bigint NOT NULL DEFAULT 0;
