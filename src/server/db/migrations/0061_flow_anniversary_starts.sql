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
