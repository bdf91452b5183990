import { translate } from "@northstar/shared/i18n";
import type { TSendCodeJob } from "@northstar/shared/jobs";
import nodemailer from "nodemailer";
import type { DomainEnv } from "../env.ts";

/** An SMS gateway. Production deployments add a provider here; `log` writes messages to the log. */
export interface SmsProvider {
  send(to: string, text: string): Promise<void>;
}

export function createSmsProvider(name: DomainEnv["SMS_PROVIDER"], log: (line: string) => void): SmsProvider {
  switch (name) {
    case "log":
      return {
        async send(to, text) {
          log(`[sms] to=${to} ${text}`);
        },
      };
  }
}

export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
  }): Promise<unknown>;
}

/** SMTP through nodemailer when SMTP_URL is set; otherwise mails are logged (development only). */
export function createMailTransport(smtpUrl: string | undefined, log: (line: string) => void): MailTransport {
  if (smtpUrl) {
    return nodemailer.createTransport(smtpUrl);
  }
  return {
    async sendMail(message) {
      log(`[mail] to=${message.to} subject=${message.subject}\n${message.text}`);
      return undefined;
    },
  };
}

/** Renders and sends one verification code in the user's language. */
export async function deliverCode(
  job: TSendCodeJob,
  deps: { mail: MailTransport; sms: SmsProvider; mailFrom: string; siteName: string },
): Promise<void> {
  const params = { code: job.code, minutes: job.ttlMinutes, site: deps.siteName };
  const text = translate(job.lang, "mail.codeBody", params);
  if (job.channel === "phone") {
    await deps.sms.send(job.to, text);
    return;
  }
  const escaped = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  await deps.mail.sendMail({
    from: deps.mailFrom,
    to: job.to,
    subject: translate(job.lang, "mail.codeSubject", params),
    text,
    html: `<p>${escaped.replace(job.code, `<strong style="font-size:20px">${job.code}</strong>`)}</p>`,
  });
}
