export * from "./messages.table.ts";
export {
  addMessage,
  listMessages,
  markAllMessagesRead,
  markMessageRead,
  type NewMessage,
  renderMessage,
} from "./messages.ts";
export { collectNudges, publishNudges, publishUserEvent, userEventsChannel } from "./nudges.ts";
export { countUnread } from "./unread.ts";
