import { z } from "zod";
import { err } from "./common.ts";

/**
 * The kinds of message events create for a user. A message is stored as its kind and its params and
 * rendered when read, in the reader's language (`messages.kind.<kind>.title|body` in the catalogs).
 */
export const MESSAGE_KINDS = [
  "deposit.confirmed",
  "deposit.rejected",
  "withdrawal.approved",
  "withdrawal.rejected",
  "withdrawal.failed",
  "kyc.approved",
  "kyc.rejected",
  "loan.approved",
  "loan.rejected",
  "loan.overdue",
  "spot.filled",
  "spot.partial",
  "c2c.matched",
  "c2c.paid",
  "c2c.completed",
  "c2c.rejected",
  "c2c.expired",
] as const;
export type TMessageKind = (typeof MESSAGE_KINDS)[number];

const zId = z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).positive(err("FIELD_INVALID"));

export const ZMessageListRequestSchema = z.object({
  page: z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).min(1).max(10_000).default(1),
  page_size: z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).min(1).max(50).default(20),
  unread_only: z.boolean().optional(),
});
export type TMessageListRequest = z.infer<typeof ZMessageListRequestSchema>;

export const ZMessageIdRequestSchema = z.object({ id: zId });

/** A message as the owner reads it: title and body already in the request's language. */
export interface TMessageView {
  id: number;
  kind: TMessageKind;
  title: string;
  body: string;
  read: boolean;
  created_at: string;
}

/** What the `user` socket channel carries when the owner's messages change: refetch the count. */
export interface TMessagesEvent {
  type: "messages";
  /** The owner's unread messages, counted up to UNREAD_BADGE_CAP (the badge shows 99+ from there). */
  unread: number;
}

/**
 * The most unread messages a live badge count counts: the bell shows "99+" beyond 99, and a trader
 * whose fills left thousands unread would otherwise make every fill count them all again.
 */
export const UNREAD_BADGE_CAP = 100;

/** Customer service: a line of text, an uploaded image, or both. */
export const SUPPORT_MESSAGE_MAX_LENGTH = 2000;
export const ZSupportSendRequestSchema = z
  .object({
    body: z
      .string(err("FIELD_INVALID"))
      .trim()
      .max(SUPPORT_MESSAGE_MAX_LENGTH, err("FIELD_INVALID"))
      .default(""),
    upload_id: z.string(err("UPLOAD_MISSING")).trim().uuid(err("UPLOAD_MISSING")).optional(),
  })
  .refine((v) => v.body !== "" || v.upload_id !== undefined, { ...err("FIELD_REQUIRED"), path: ["body"] });
export type TSupportSendRequest = z.infer<typeof ZSupportSendRequestSchema>;

export const ZSupportHistoryRequestSchema = z.object({
  /** Lines before this id (older), for scrolling back; the latest lines without it. */
  before_id: zId.optional(),
  limit: z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).min(1).max(100).default(50),
});

export const ZSupportReplyRequestSchema = z.object({
  conversation_id: zId,
  body: z
    .string(err("FIELD_INVALID"))
    .trim()
    .min(1, err("FIELD_REQUIRED"))
    .max(SUPPORT_MESSAGE_MAX_LENGTH, err("FIELD_INVALID")),
});

export interface TSupportLine {
  id: number;
  conversation_id: number;
  author: "user" | "operator";
  body: string;
  upload_id: string | null;
  created_at: string;
}

/** What the socket carries when a conversation moves: the new line (the `user` and `support` channels). */
export interface TSupportEvent {
  type: "support";
  line: TSupportLine;
}
