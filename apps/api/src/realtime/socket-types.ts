import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

export interface SocketLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface MarketSocketServer {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
  /** Clients connected to this process and the bytes queued for them; null when child processes serve them. */
  stats(): SocketStats | null;
}

export interface SocketStats {
  clients: number;
  backlogBytes: number;
}

/** What the parent sends a child with an upgraded connection's socket. */
export interface UpgradeMessage {
  type: "upgrade";
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  head: string;
}
