export * from "./messages.table.ts";
export {
  addMessage,
  addMessages,
  listMessages,
  markAllMessagesRead,
  markMessageRead,
  type NewMessage,
  renderMessage,
} from "./messages.ts";
export { messageBadgesSettled, useMessagePublisher } from "./nudges.ts";
export { countUnread } from "./unread.ts";
export {
  publishSequenced,
  publishUserEvent,
  publishUserEvents,
  type SequencedEvent,
  userEvent,
  userEventsChannel,
} from "./user-events.ts";
