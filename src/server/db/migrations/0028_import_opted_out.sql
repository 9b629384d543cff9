-- Import wizard (issue 20): how many numbers of an imported file are in the team's default_optouts.
-- They are imported into the group like any other (the group is the marketer's list), flagged in
-- the result, and never subscribed again: campaigns leave them out while they stay opted out.
ALTER TABLE contact_imports ADD COLUMN contacts_opted_out integer NOT NULL DEFAULT 0;
