-- The simulated social network's writes: network_posts, network_deleted_posts,
-- network_articles, network_dms and network_write_seq. They moved to the simulated
-- network's own migrations (adapters/x/simulated/migrations/0001_network_writes.sql,
-- recorded in simulated_network_migrations): an adapter owns its tables (STYLE.md).
-- This file stays, empty, because databases record it as applied (the chain is forward
-- only and refuses a recorded version it does not know); a database it already migrated
-- keeps those tables, which the adapter's first migration recognises.
select 1;
