import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A PostgreSQL server of a test's own (initdb into a temporary folder, its own port), so that a
 * fault test can stop and start it without touching the server every other test shares. PostgreSQL
 * refuses to run as root; as root the cluster runs as the `postgres` system user.
 */
export interface PostgresCluster {
  port: number;
  /** A connection URL to a database of this cluster. */
  url(database: string): string;
  /** Starts the server (again); resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops it in the given mode: `fast` rolls back open transactions and closes connections. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
const runAs = (command: string, args: string[]): [string, string[]] =>
  asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), "northstar-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const [initdb, initArgs] = runAs("initdb", [
    "-D",
    data,
    "-A",
    "trust",
    "-U",
    "postgres",
    "--no-sync",
    "-E",
    "UTF8",
  ]);
  execFileSync(initdb, initArgs, { stdio: "ignore" });
  const port = await freePort();
  let server: ChildProcess | null = null;

  const start = async () => {
    const [postgres, args] = runAs("postgres", [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "max_connections=50",
    ]);
    const child = spawn(postgres, args, { stdio: ["ignore", "ignore", "pipe"] });
    server = child;
    await new Promise<void>((resolve, reject) => {
      let log = "";
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("ready to accept connections")) {
          child.stderr?.off("data", onData);
          resolve();
        }
      };
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`postgres exited with ${code}: ${log.slice(-500)}`)));
    });
    // Keep draining its log so that the pipe never fills.
    child.stderr?.resume();
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null) {
      return;
    }
    const exited = once(child, "exit");
    // postgres: SIGINT is a fast shutdown, SIGQUIT an immediate one. The postmaster's pid is the first
    // line of postmaster.pid (as root, the child is runuser, which does not pass signals on).
    const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, mode === "fast" ? "SIGINT" : "SIGQUIT");
    await exited;
  };
  await start();
  return {
    port,
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop,
    async destroy() {
      await stop("immediate");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
