-- Flows: anniversaries in each recipient's zone, and webhook steps' calls retried (docs/flows.md).

-- The `anniversary` trigger in each recipient's zone (docs/flows.md): a row for each number whose
-- anniversary run a flow started, on the anniversary's date in the number's zone. Its key makes each
-- number's start happen once per flow and year across ticks, processes and restarts: the rows are
-- inserted in the transaction that starts the runs, and a number already there is not started again.
-- It replaces the flow-wide `anniversary_done_on` (one day in the team's zone for every recipient).
CREATE TABLE flow_anniversary_starts (
  flow_id bigint NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  on_date date NOT NULL,
  PRIMARY KEY (flow_id, phone_number, on_date)
);
ALTER TABLE flows DROP COLUMN anniversary_done_on;

-- A flow's webhook steps' calls (docs/flows.md, "webhook"): written in the advance's transaction with
-- the move past the step (one per run and step: the key), then called, and called again with backoff
-- while the receiver cannot take it, by whichever process takes it first (`next_at` is also the
-- lease of a call under way: a process that dies mid-call leaves it to be taken again then).
CREATE TABLE flow_webhook_calls (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES flow_runs(id) ON DELETE CASCADE,
  step_id text NOT NULL,
  url text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_at timestamptz NOT NULL,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (run_id, step_id)
);
CREATE INDEX flow_webhook_calls_due_idx ON flow_webhook_calls (next_at) WHERE state = 'pending';
