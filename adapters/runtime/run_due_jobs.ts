/**
 * The entry of the job thread (PostgreSQL mode): the composition root of that thread.
 * It opens the thread's own pool and its ports with the same wiring as the server's
 * (open_ports.ts), from the plain-data settings the server handed it (start_jobs.ts), and
 * runs the task list with them (jobs/job_thread.ts holds the loop and bree's protocol).
 */
import { systemClock } from "../../core/clock.ts";
import { runJobThread } from "../../jobs/job_thread.ts";
import { taskList } from "../../jobs/task_list.ts";
import { openDatabase } from "../postgres/open_database.ts";
import { jobDepsOf, openPorts } from "./open_ports.ts";
import type { JobThreadWiring } from "./start_jobs.ts";

await runJobThread<JobThreadWiring>(async (wiring, events) => {
  const database = await openDatabase({ databaseUrl: wiring.databaseUrl, poolSize: wiring.poolSize });
  try {
    const ports = await openPorts(database.sql, systemClock, wiring.ports);
    const close = async () => {
      await ports.close();
      await database.close();
    };
    return { tasks: taskList, deps: jobDepsOf(database.sql, systemClock, ports, events), close };
  } catch (error) {
    await database.close();
    throw error;
  }
});
