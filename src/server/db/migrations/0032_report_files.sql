-- Issue 22, point 7: report files live in the database, so every process can serve them.
--
-- A report job's CSV is written as the export streams, in parts of about a megabyte, each under the
-- attempt (the claim's lease token) that wrote it: two attempts at one job never write the same
-- rows, and an attempt's parts are no file until the fenced step that records the CSV names that
-- attempt in `file_attempt`. A download reads the parts of `file_attempt` in order, one at a time,
-- from whichever process the link reaches. Parts of attempts that never published are removed by
-- the attempt itself, or by the report worker's sweep once the attempt is fenced; all of a job's
-- parts are removed by that sweep once its link has expired.
CREATE TABLE report_file_parts (
  job_id bigint NOT NULL REFERENCES report_jobs (id) ON DELETE CASCADE,
  attempt bigint NOT NULL,
  part integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (job_id, attempt, part)
);

-- The attempt whose parts are the job's CSV (null: none kept), and its size in bytes.
ALTER TABLE report_jobs ADD COLUMN file_attempt bigint, ADD COLUMN file_bytes bigint;

-- The public URL of the API process that received the request: the e-mailed link is built on it,
-- whichever process writes the report (null for jobs queued before this migration: the worker's own).
ALTER TABLE report_jobs ADD COLUMN public_url text;
