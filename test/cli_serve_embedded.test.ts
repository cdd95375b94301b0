/** The operating contract through real processes on embedded storage (test/support/cli_serve_suite.ts). */
import { describeCliSuite } from "./support/cli_serve_suite.ts";

describeCliSuite("embedded");
