-- Consent you can prove (issue 36): the team setting that makes a keyword sign-up wait for the
-- number's YES (docs/consent.md). Off by default, so a keyword keeps doing what the spec says for
-- existing clients.
ALTER TABLE teams ADD COLUMN double_opt_in boolean NOT NULL DEFAULT false;
