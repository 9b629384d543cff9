-- One job runner for background work (issue 33, point 2; src/server/jobs/).

-- Periodic work (sweeps), done by one process of all that share the database: the process whose
-- claim moves `next_run_at` on runs it.
CREATE TABLE job_schedules (
  name text PRIMARY KEY,
  next_run_at timestamptz NOT NULL,
  last_run_at timestamptz NOT NULL
);

-- Until when a runner holds an account e-mail or an event delivery it took: set by the claim,
-- cleared by the outcome, so "running" is told apart from "waiting for its retry" (herald_jobs, and
-- the admin list of jobs). Taking a due job still goes by next_attempt_at, as before.
ALTER TABLE account_emails ADD COLUMN leased_until timestamptz;
ALTER TABLE event_deliveries ADD COLUMN leased_until timestamptz;
