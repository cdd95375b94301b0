-- Issue 5, the publisher: "several server processes never publish the same post". A
-- publisher claims a post for a lease before it touches the network and renews the lease
-- at every part it records, so a second process (another server's job, a publish-now
-- request) leaves the post alone while the first is alive, and takes over once a crashed
-- holder's lease has passed; publish_parts then tells it what already went out.
-- A column lease rather than a row lock: the publishing row of each part must commit
-- before the network is asked, and embedded PGlite runs one transaction at a time, so no
-- transaction may stay open across a network call.
alter table scheduled_posts
  add column publish_claimed_by text,
  add column publish_claimed_until timestamptz;

-- (Its index network_posts_by_text on the simulated network's table moved with that
-- table to adapters/x/simulated/migrations/0001_network_writes.sql.)
