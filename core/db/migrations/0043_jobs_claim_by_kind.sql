-- Claims by kind (core/jobs/jobs_queries.ts `dueJobs`): each lane of a job runner claims only
-- its own kinds, oldest first. Through jobs_claim alone, a lane whose kinds had nothing due
-- walked every queued job of the other kinds to find that out: 100 ms a claim behind a burst
-- of 100,000 due posts, for each idle lane of each process, once a second. This index answers
-- a lane kind by kind, in claim order, whatever the other kinds hold.
create index jobs_claim_by_kind on jobs (kind, run_at, id) where status = 'queued';
