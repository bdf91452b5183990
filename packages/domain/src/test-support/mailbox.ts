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
          const { subject, bodies } = decodeMail(mail.raw);
          const match =
            /(?<!\d)(\d{6})(?!\d)/.exec(subject) ?? /(?<!\d)(\d{6})(?!\d)/.exec(bodies.join("\n"));
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

/**
 * Just enough MIME to read a code the way a mail client shows it: headers are unfolded and their
 * encoded words (RFC 2047) decoded, and base64 or quoted-printable parts decoded. Mails in languages
 * other than English arrive encoded, with the code out of sight in the raw text.
 */
export function decodeMail(raw: string): { subject: string; bodies: string[] } {
  const headerEnd = raw.search(/\r?\n\r?\n/);
  const headers = (headerEnd < 0 ? raw : raw.slice(0, headerEnd)).replace(/\r?\n[ \t]+/g, " ");
  const subjectLine = /^Subject:[ \t]*(.*)$/im.exec(headers)?.[1] ?? "";
  // Adjacent encoded words are joined without the space between them (RFC 2047 section 6.2).
  const subject = subjectLine
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _c, enc: string, text: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
  const bodies: string[] = [];
  const partPattern =
    /Content-Transfer-Encoding:[ \t]*([\w-]+)\r?\n(?:[^\r\n]+\r?\n)*?\r?\n([\s\S]*?)(?=\r?\n--|$)/gi;
  for (const [, encoding, body] of raw.matchAll(partPattern)) {
    const kind = encoding?.toLowerCase();
    const text = body ?? "";
    bodies.push(
      kind === "base64"
        ? Buffer.from(text.replace(/\s+/g, ""), "base64").toString("utf8")
        : kind === "quoted-printable"
          ? decodeQuotedPrintable(text.replace(/=\r?\n/g, ""))
          : text,
    );
  }
  return { subject, bodies: bodies.length > 0 ? bodies : [raw] };
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === "=" ? text.slice(i + 1, i + 3) : "";
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
