-- Opt-outs a provider reported (issue 34): a status callback saying the recipient opted out at the
-- provider (Vonage err-code 9, Plivo 200, Infobip REJECTED_DESTINATION_BLOCKLISTED…) puts the number
-- on the connection's team's default_optouts, recorded with the source `provider`.
ALTER TABLE opt_out_events DROP CONSTRAINT opt_out_events_source_check;
ALTER TABLE opt_out_events ADD CONSTRAINT opt_out_events_source_check CHECK (source IN ('keyword', 'import', 'dashboard', 'api', 'provider'));
