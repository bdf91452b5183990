import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import type { MarketSocketServer, SocketLog, UpgradeMessage } from "./socket-types.ts";

/** This module compiled (`dist/…/.js`, run by plain node) or as source (`src/…/.ts`, run through tsx). */
const COMPILED = import.meta.url.endsWith(".js");
const ENTRY = fileURLToPath(
  new URL(COMPILED ? "./socket-process.js" : "./socket-process.ts", import.meta.url),
);

/**
 * Child processes that serve the market socket, each its share of the connections in full. The
 * parent reads only the HTTP upgrade request; the connection's socket is then handed over (the
 * operating system passes the file descriptor) round robin. A child that dies is replaced; its
 * clients reconnect (to any child) and start from fresh snapshots. Children inherit this process's
 * environment; the Redis prefix, which tests choose per run, is passed as their argument.
 */
export function startSocketProcesses(count: number, log: SocketLog, redisPrefix: string): MarketSocketServer {
  // The children run as the parent does: the compiled JavaScript with the parent's node options, or
  // this TypeScript through tsx (`node --import tsx`).
  const args = process.execArgv;
  const hasTsx = args.some(
    (a, i) =>
      /^--(import|loader)=tsx$/.test(a) || (a === "tsx" && /^--(import|loader)$/.test(args[i - 1] ?? "")),
  );
  const execArgv = COMPILED || hasTsx ? args : [...args, "--import", "tsx"];
  let closing = false;
  let next = 0;
  const children: { child: ChildProcess; ready: Promise<void> }[] = [];
  const start = (index: number) => {
    const child = fork(ENTRY, [redisPrefix], {
      execArgv,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const ready = new Promise<void>((resolve, reject) => {
      child.on("message", (m: { type?: string }) => m?.type === "ready" && resolve());
      child.once("exit", () => reject(new Error("market socket process exited before it was ready")));
    });
    ready.catch(() => {});
    child.once("exit", (code, signal) => {
      if (!closing) {
        log.error({ code, signal }, "market socket process exited; starting another");
        // A second later, so that a child that cannot start does not spin.
        setTimeout(() => !closing && start(index), 1000).unref();
      }
    });
    children[index] = { child, ready };
  };
  for (let i = 0; i < count; i++) {
    start(i);
  }
  return {
    // The children hold the sockets; each would have to report over IPC (not built).
    stats: () => null,
    handleUpgrade(req, socket, head) {
      // Stop reading the connection here at once. Its descriptor stays open and polled in this
      // process until the child acknowledges it, and bytes read here meanwhile are dropped: a
      // client's subscribe, sent as soon as the child has answered the handshake, could be lost, the
      // client then waiting forever for its snapshot (1 connection in ~15,000 when the machine is busy).
      (socket as Socket & { _handle?: { readStop?(): number } | null })._handle?.readStop?.();
      const target = children[next++ % children.length];
      if (!target || closing) {
        socket.destroy();
        return;
      }
      const message: UpgradeMessage = {
        type: "upgrade",
        method: req.method ?? "GET",
        url: req.url ?? "/ws",
        headers: req.headers,
        head: head.toString("base64"),
      };
      target.ready
        .then(() => {
          // Detached from the HTTP server first: otherwise Node counts the connection as one a child
          // keeps and makes the server's close wait on that child's report, while the destroy below
          // would count it closed a second time; so the server would never finish closing.
          (socket as Socket & { server: unknown }).server = null;
          target.child.send(message, socket as Socket, () => {
            // Sent or not, this process is done with it: once sent, the socket has no handle left
            // here, and destroying it lets the HTTP server stop counting it as an open connection.
            socket.destroy();
          });
        })
        .catch(() => socket.destroy());
    },
    async close() {
      closing = true;
      await Promise.all(
        children.map(async ({ child }) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            return;
          }
          const exited = once(child, "exit");
          child.kill("SIGTERM");
          await exited;
        }),
      );
    },
  };
}
