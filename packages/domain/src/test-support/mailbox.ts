import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on a free local port that keeps what it receives, so tests read verification
 * codes the way a user would: from the mail.
 */
export async function startMailbox(): Promise<{
  url: string;
  mails: ReceivedMail[];
  waitForCode(to: string, options?: { after?: number; timeoutMs?: number }): Promise<string>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    mails,
    async waitForCode(to, options = {}) {
      const after = options.after ?? 0;
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      while (Date.now() < deadline) {
        const mine = mails.filter((m) => m.to.includes(to.toLowerCase()));
        const mail = mine[mine.length - 1];
        if (mail && mine.length > after) {
          const match = /Subject:[^\r\n]*?(\d{6})/.exec(mail.raw) ?? /\b(\d{6})\b/.exec(mail.raw);
          if (match?.[1]) {
            return match[1];
          }
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no code mailed to ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
