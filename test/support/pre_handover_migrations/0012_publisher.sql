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

-- The simulated network refuses an author's identical text within a day
-- (adapters/x/simulated/post_writes.ts), and looks it up at every publish. Through
-- network_posts_by_author (or a scan) that reads every post the author wrote that day, so
-- a burst of posts from one account costs quadratic time (measured after 10,000 posts of
-- one author: 1.8-3.3 ms per lookup, 0.08 ms with this index; the bench publishes 10,000
-- posts due in one minute). A hash index finds equal texts directly, whatever their
-- length (a btree entry is limited to about 2,700 bytes; a premium post may be 25,000
-- characters).
create index network_posts_by_text on network_posts using hash (text);
