import { Modal, message } from "antd";
import { useEffect } from "react";
import { bindFeedbackHost } from "../lib/feedback.ts";

/**
 * antd's message and modal, mounted inside the theme (so toasts and dialogs follow light and dark
 * and the language), and handed to `feedback` for code outside React. Loaded on first use.
 */
export function FeedbackHost() {
  const [messageApi, messageHolder] = message.useMessage({ maxCount: 3 });
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => {
    bindFeedbackHost({ message: messageApi, confirm: (props) => void modalApi.confirm(props) });
    return () => bindFeedbackHost(undefined);
  }, [messageApi, modalApi]);
  return (
    <>
      {messageHolder}
      {modalHolder}
    </>
  );
}
