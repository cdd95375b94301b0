/** The operating contract through real processes on PostgreSQL, when `DATABASE_URL` is set (test/support/cli_serve_suite.ts). */
import { describeCliSuite } from "./support/cli_serve_suite.ts";

describeCliSuite("postgres");
