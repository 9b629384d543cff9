-- The gateway-wide rate cap (SMS_RATE_LIMIT) shared by every engine process: each second's sends
-- are granted from one row, so two processes together stay under the cap.
CREATE TABLE gateway_rate (
  second timestamptz PRIMARY KEY,
  used integer NOT NULL DEFAULT 0
);
