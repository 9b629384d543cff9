-- Issue #16 (exactly once, proven): report jobs are fenced the way the engine's batches are.
--
-- Every claim of a report job gives it a new `lease_token`. Its worker renews the lease, records the
-- written CSV, the e-mail or a failed attempt only while the token is still its own, so a worker whose
-- lease ran out and whose job another worker took over can no longer move the job on: no second
-- e-mail, no file renamed over the newer attempt's. The token also names the attempt's partial file
-- (`<job>.<token>.csv.part`), so two attempts never write the same one.
CREATE SEQUENCE report_job_lease_tokens;
ALTER TABLE report_jobs ADD COLUMN lease_token bigint;
