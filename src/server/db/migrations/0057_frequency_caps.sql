-- Frequency caps (issue 36): at most `frequency_cap_messages` marketing messages to a number in the
-- team within `frequency_cap_days` days. Both null: no cap (the default); both set, or neither.
ALTER TABLE teams ADD COLUMN frequency_cap_messages integer;
ALTER TABLE teams ADD COLUMN frequency_cap_days integer;
ALTER TABLE teams ADD CONSTRAINT teams_frequency_cap_check CHECK (
  (frequency_cap_messages IS NULL AND frequency_cap_days IS NULL)
  OR (frequency_cap_messages >= 1 AND frequency_cap_days BETWEEN 1 AND 90));

-- The claim counts, for each number of a batch, the campaign messages handed over to it within the
-- window: along the number and the hand-over time, with the campaign at hand for its team (an
-- index-only scan but for the campaign's row). Only messages handed over have a submitted_at.
CREATE INDEX messages_phone_submitted_idx ON messages (phone_number, submitted_at) INCLUDE (campaign_id) WHERE submitted_at IS NOT NULL;
