import { Alert, Flex, Form, Input, Modal, Typography } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { refusalText } from "./admin-query-client.ts";

/**
 * The confirmation of an operator action. With `reasonRequired` it asks for a reason (1–200
 * characters, the server's bounds). The server's refusal is shown in the dialog.
 */
export function ConfirmActionDialog({
  open,
  title,
  description,
  okText,
  danger,
  reasonRequired,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  okText: string;
  danger?: boolean;
  reasonRequired?: boolean;
  onSubmit: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (open) {
      form.resetFields();
      setError(undefined);
    }
  }, [open, form]);

  const submit = async () => {
    let reason = "";
    if (reasonRequired) {
      try {
        reason = (await form.validateFields()).reason.trim();
      } catch {
        return;
      }
    }
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(reason);
      onClose();
    } catch (e) {
      setError(refusalText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ danger, "data-testid": "admin-confirm-ok" }}
      cancelButtonProps={{ "data-testid": "admin-confirm-cancel" }}
      destroyOnHidden
      mask={{ closable: !busy }}
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph style={{ margin: 0 }}>{description}</Typography.Paragraph>
        {reasonRequired && (
          <Form form={form} layout="vertical" requiredMark={false}>
            <Form.Item
              name="reason"
              label={t("fields.reason")}
              extra={t("admin.review.reasonHint")}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t("errors.FIELD_REQUIRED", { field: t("fields.reason") }),
                },
                { max: 200, message: t("admin.review.reasonTooLong", { max: 200 }) },
              ]}
              style={{ marginBottom: 0 }}
            >
              <Input.TextArea rows={3} maxLength={200} showCount data-testid="admin-reject-reason" />
            </Form.Item>
          </Form>
        )}
        {error && <Alert type="error" showIcon title={error} data-testid="admin-action-error" />}
      </Flex>
    </Modal>
  );
}
