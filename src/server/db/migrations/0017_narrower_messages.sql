-- Narrower, roomier message rows (issue #6, throughput). Nothing reads a message's updated_at (its
-- times are submitted_at and finished_at), and each of a message's updates rewrote it. A message is
-- written three times (inserted, submitted, settled); with 40 % of each page free, the settling
-- update more often finds room beside its row (a HOT update: no new index entries).
ALTER TABLE messages DROP COLUMN updated_at;
ALTER TABLE messages SET (fillfactor = 60);
