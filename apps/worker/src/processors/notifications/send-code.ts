import { deliverCode, type MailTransport, type SmsProvider } from "@northstar/domain/notifications";
import { ZSendCodeJobSchema } from "@northstar/shared/jobs";
import { UnrecoverableError } from "bullmq";

export interface SendCodeDeps {
  mail: MailTransport;
  sms: SmsProvider;
  mailFrom: string;
  siteName: string;
}

/** Delivers one verification code. A malformed payload is never retried. */
export async function processSendCode(data: unknown, deps: SendCodeDeps): Promise<void> {
  const parsed = ZSendCodeJobSchema.safeParse(data);
  if (!parsed.success) {
    throw new UnrecoverableError(`invalid send-code payload: ${parsed.error.message}`);
  }
  await deliverCode(parsed.data, deps);
}
