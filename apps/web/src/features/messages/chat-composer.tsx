import { PictureOutlined, SendOutlined } from "@ant-design/icons";
import { SUPPORT_MESSAGE_MAX_LENGTH } from "@northstar/shared/contracts/messages";
import { Button, Flex, Input } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";

const IMAGE_TYPES = new Set(["image/jpeg", "image/png"]);

/**
 * The input under a conversation: text (Enter sends, Shift+Enter breaks the line) and, when
 * `onImage` is given, an image picker. The size limit is the upload policy's, checked before sending.
 */
export function ChatComposer({
  onSend,
  onImage,
  maxImageBytes,
  busy,
  placeholder,
  sendLabel,
  testId,
  onWarn,
}: {
  onSend: (body: string) => Promise<unknown>;
  onImage?: (file: File) => Promise<unknown>;
  maxImageBytes?: number;
  busy: boolean;
  placeholder: string;
  sendLabel: string;
  testId: string;
  /** Shows a refusal of the picked file (the user app's toast, the back office's message). */
  onWarn: (text: string) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const picker = useRef<HTMLInputElement>(null);

  const send = async () => {
    const body = text.trim();
    if (!body || busy) {
      return;
    }
    try {
      await onSend(body);
      setText("");
    } catch {
      // The refusal is shown by the app's error rules; the text stays to be sent again.
    }
  };

  return (
    <Flex gap={8} align="flex-end">
      {onImage && (
        <>
          <input
            ref={picker}
            type="file"
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            hidden
            data-testid={`${testId}-file`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (!file) {
                return;
              }
              if (!IMAGE_TYPES.has(file.type)) {
                onWarn(t("errors.UPLOAD_TYPE"));
              } else if (maxImageBytes !== undefined && file.size > maxImageBytes) {
                onWarn(t("errors.UPLOAD_TOO_LARGE", { mb: Math.floor(maxImageBytes / 1024 / 1024) }));
              } else {
                void onImage(file);
              }
            }}
          />
          <Button
            icon={<PictureOutlined />}
            aria-label={t("messages.service.attach")}
            title={t("messages.service.attach")}
            disabled={busy}
            onClick={() => picker.current?.click()}
            data-testid={`${testId}-attach`}
          />
        </>
      )}
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={placeholder}
        maxLength={SUPPORT_MESSAGE_MAX_LENGTH}
        autoSize={{ minRows: 1, maxRows: 4 }}
        onPressEnter={(e) => {
          if (!e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
        data-testid={`${testId}-input`}
      />
      <Button
        type="primary"
        icon={<SendOutlined />}
        loading={busy}
        disabled={text.trim() === ""}
        onClick={() => void send()}
        data-testid={`${testId}-send`}
      >
        {sendLabel}
      </Button>
    </Flex>
  );
}
