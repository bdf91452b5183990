import { Form } from "antd";
import { useTranslation } from "react-i18next";
import { ProofUpload } from "../funding/proof-upload.tsx";

/**
 * One verification photo: uploaded privately through /uploads/proof (type by content, size by
 * policy); the form field holds the upload id, which the application refers to.
 */
export function PhotoField({
  name,
  label,
  testId,
  optional = false,
}: {
  name: string | (string | number)[];
  label: string;
  testId: string;
  optional?: boolean;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <Form.Item
      name={name}
      label={label}
      rules={optional ? [] : [{ required: true, message: t("errors.FIELD_REQUIRED", { field: label }) }]}
      style={{ flex: "1 1 140px", marginBottom: 8 }}
    >
      <ProofUpload
        testId={testId}
        jpeg2000
        onReject={(message) => form.setFields([{ name, errors: [message] }])}
      />
    </Form.Item>
  );
}
