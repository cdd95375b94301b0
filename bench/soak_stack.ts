/**
 * The soak's serving stack: three `threadline serve` processes, each on a fixed loopback port
 * so one may be SIGKILLed and started again where HAProxy (Debian's package) expects it, and
 * HAProxy in front of them with health checks on `/readyz` (docs/operations.md).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findExecutable, freePort, isExecutable, waitFor } from "./processes.ts";

const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));

/** One server process slot: its port stays, its process changes across kills. */
export interface ServerSlot {
  port: number;
  child?: ChildProcess;
  /** The last lines of its output, for a failure message. */
  output: string[];
  starts: number;
}

/** The three servers. */
export interface ServerGroup {
  slots: ServerSlot[];
  /** Starts slot `index` and waits until it listens; `demoFile` writes the demo world (first start only). */
  start(index: number, demoFile?: string): Promise<void>;
  /** SIGKILLs slot `index` (no drain: the leases and claims it held must be taken over). */
  kill(index: number): Promise<void>;
  /** SIGTERM to every process, then SIGKILL past 15 s. */
  stopAll(): Promise<void>;
}

/** Prepares `count` slots on free ports; `env` is every process's environment. */
export async function createServerGroup(count: number, env: NodeJS.ProcessEnv): Promise<ServerGroup> {
  const slots: ServerSlot[] = [];
  for (let i = 0; i < count; i++) slots.push({ port: await freePort(), output: [], starts: 0 });
  const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  const waitExit = (child: ChildProcess) => new Promise<void>((resolve) => (exited(child) ? resolve() : child.once("close", () => resolve())));
  return {
    slots,
    async start(index, demoFile) {
      const slot = slots[index];
      const args = ["--import", "tsx", "adapters/cli/main.ts", "serve", "--port", String(slot.port), ...(demoFile ? ["--demo-file", demoFile] : [])];
      const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      slot.child = child;
      slot.starts++;
      let listening = false;
      const keep = (chunk: string) => {
        if (chunk.includes("listening on")) listening = true;
        slot.output.push(...chunk.split("\n").filter(Boolean));
        if (slot.output.length > 40) slot.output.splice(0, slot.output.length - 40);
      };
      child.stdout!.setEncoding("utf8").on("data", keep);
      child.stderr!.setEncoding("utf8").on("data", keep);
      await waitFor(
        `server ${index} to listen on ${slot.port}`,
        () => {
          if (exited(child)) throw new Error(`Server ${index} exited while starting:\n${slot.output.join("\n")}`);
          return listening;
        },
        120_000,
        100,
      );
    },
    async kill(index) {
      const child = slots[index].child;
      if (!child || exited(child)) return;
      child.kill("SIGKILL");
      await waitExit(child);
    },
    async stopAll() {
      await Promise.all(
        slots.map(async ({ child }) => {
          if (!child || exited(child)) return;
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
          await waitExit(child);
          clearTimeout(timer);
        }),
      );
    },
  };
}

/** A running HAProxy. */
export interface Balancer {
  url: string;
  stop(): Promise<void>;
  pid: number;
}

/** The HAProxy executable (Debian installs it in /usr/sbin, often off a user's PATH). */
export function haproxyExecutable(): string | undefined {
  return findExecutable("haproxy") ?? ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"].find((path) => isExecutable(path));
}

/**
 * Starts HAProxy on a free loopback port in front of `ports`: round robin, a server taken out
 * after 2 failed `/readyz` checks (1 s apart) and back after 2 good ones, a request that could
 * not connect re-dispatched once to another server, and SSE connections kept open for an hour
 * (`timeout tunnel`: the stream's own lifetime is the bound).
 */
export async function startBalancer(haproxy: string, ports: number[]): Promise<Balancer> {
  const dir = await mkdtemp(join(tmpdir(), "tl-soak-haproxy-"));
  const port = await freePort();
  const config = [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 3s",
    "  timeout client 90s",
    "  timeout server 90s",
    "  timeout tunnel 1h",
    "  retries 2",
    "  option redispatch",
    "frontend soak",
    `  bind 127.0.0.1:${port}`,
    "  default_backend threadline",
    "backend threadline",
    "  balance roundrobin",
    "  option httpchk GET /readyz",
    "  http-check expect status 200",
    "  default-server inter 1s fall 2 rise 2",
    ...ports.map((serverPort, i) => `  server s${i} 127.0.0.1:${serverPort} check`),
    "",
  ].join("\n");
  const configFile = join(dir, "haproxy.cfg");
  await writeFile(configFile, config);
  const child = spawn(haproxy, ["-f", configFile, "-db"], { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (errors = (errors + chunk).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    "HAProxy to answer",
    async () => {
      if (child.exitCode !== null) throw new Error(`HAProxy exited: ${errors}`);
      return fetch(`${url}/healthz`).then(
        (answer) => answer.ok,
        () => false,
      );
    },
    30_000,
    200,
  );
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
        child.kill("SIGTERM");
        await closed;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
