-- Issue 32, point 8: phone numbers as people write them.

-- The country a team's national numbers are read in (imports, the wizard, search): one of
-- libphonenumber's two-letter codes; NULL keeps the installation's DEFAULT_COUNTRY.
ALTER TABLE teams ADD COLUMN default_country text CHECK (default_country ~ '^[A-Z]{2}$');

-- Text compared without its accents, for contact search ("chloe" finds "Chloé"). Not the unaccent
-- extension: creating it takes rights an application's database role may not have, and its rules
-- file differs between builds. This folds the Latin letters with
-- diacritics (Latin-1 and Latin Extended-A) to their base letter and drops combining marks (text
-- written decomposed); case is left to ILIKE. IMMUTABLE, so an expression index may use it.
CREATE FUNCTION herald_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT translate(value, 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžØøĐđŁłĦħßÆæŒœÐðÞþı̴̵̶̷̸̡̢̧̨̛̖̗̘̙̜̝̞̟̠̣̤̥̦̩̪̫̬̭̮̯̰̱̲̳̹̺̻̼͇͈͉͍͎̀́̂̃̄̅̆̇̈̉̊̋̌̍̎̏̐̑̒̓̔̽̾̿̀́͂̓̈́͆͊͋͌̕̚ͅ͏͓͔͕͖͙͚͐͑͒͗͛ͣͤͥͦͧͨͩͪͫͬͭͮͯ͘͜͟͢͝͞͠͡', 'AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzOoDdLlHhsAaOoDdTti') $$;
