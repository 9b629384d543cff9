-- The simulator's fences: a recall under a batch's token (a newer owner asking what an older one
-- handed over) records the token here, per client reference, and the simulator then refuses a
-- hand-over of that reference under an older token. Written only by recalls (rare: after a
-- takeover), so the usual hand-over writes nothing here.
CREATE TABLE simulator_fences (
  client_ref text PRIMARY KEY,
  fence bigint NOT NULL
);
