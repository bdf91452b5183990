import { PlusOutlined } from "@ant-design/icons";
import type { UploadFile, UploadProps } from "antd";
import { Flex, Typography, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, applyClientRules } from "../../lib/client-rules.ts";
import { usePolicy } from "../../lib/policy.ts";
import { languageStore, tokenStore } from "../../lib/session.ts";

const IMAGE_TYPES = new Set(["image/jpeg", "image/png"]);
const IMAGE_EXTENSIONS = /\.(jpe?g|png)$/i;
// Verification photos may also be JPEG 2000 (SPEC section 5); the server tells it by content.
const JP2_TYPES = new Set(["image/jp2", "image/jpx", "image/jpm"]);
const JP2_EXTENSIONS = /\.(jp2|j2k|jpf|jpx)$/i;

interface UploadEnvelope {
  code: number;
  message: string;
  data: { id?: string; url?: string; error?: string; field?: string } | null;
}

/**
 * A proof image for a form field whose value is the upload id. The type (JPG, JPEG, PNG) and size
 * (policy `uploads.maxBytes`, the limit the server enforces) are checked before anything is sent;
 * the server checks the content again. A refusal is handed to `onReject`, to show on the field.
 */
export function ProofUpload({
  value,
  onChange,
  onReject,
  onBusy,
  disabled,
  testId,
  jpeg2000 = false,
}: {
  value?: string;
  onChange?: (id: string | undefined) => void;
  onReject: (message: string) => void;
  onBusy?: (busy: boolean) => void;
  disabled?: boolean;
  testId: string;
  /** Also accept JPEG 2000 (KYC photos). */
  jpeg2000?: boolean;
}) {
  const { t } = useTranslation();
  const policy = usePolicy();
  const maxBytes = policy["uploads.maxBytes"];
  const maxMb = Math.floor(maxBytes / 1024 / 1024);
  const [files, setFiles] = useState<UploadFile[]>([]);
  const uploading = files.some((f) => f.status === "uploading");

  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    const jp2 = jpeg2000 && (JP2_TYPES.has(file.type) || JP2_EXTENSIONS.test(file.name));
    if (!jp2 && !IMAGE_TYPES.has(file.type) && !IMAGE_EXTENSIONS.test(file.name)) {
      onReject(t("funding.deposit.proofType"));
      return Upload.LIST_IGNORE;
    }
    if (file.size > maxBytes) {
      onReject(t("errors.UPLOAD_TOO_LARGE", { mb: maxMb }));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps["customRequest"] = ({ file, onSuccess, onError }) => {
    const body = new FormData();
    body.append("file", file as Blob);
    onBusy?.(true);
    fetch("/uploads/proof", {
      method: "POST",
      headers: { authorization: `Bearer ${tokenStore.get()}`, lang: languageStore.get() },
      body,
    })
      .then((response) => response.json() as Promise<UploadEnvelope>)
      .then(
        (envelope) => {
          if (envelope.code !== 0 || !envelope.data?.id) {
            // The same client rules as every other call: 2000 asks to log in, others warn.
            const error = new ApiError(
              envelope.message,
              envelope.code,
              envelope.data?.error,
              envelope.data?.field,
            );
            applyClientRules(error, { silent: true });
            onReject(envelope.message || t("errors.REQUEST_ERROR"));
            onError?.(error);
            return;
          }
          onSuccess?.(envelope.data);
          onChange?.(envelope.data.id);
        },
        (error: unknown) => {
          console.error("proof upload failed", error);
          onReject(t("errors.NETWORK_ERROR"));
          onError?.(error instanceof Error ? error : new Error(String(error)));
        },
      )
      .finally(() => onBusy?.(false));
  };

  return (
    <Upload
      accept={`.jpg,.jpeg,.png,image/jpeg,image/png${jpeg2000 ? ",.jp2,.j2k,.jpf,.jpx,image/jp2" : ""}`}
      listType="picture-card"
      maxCount={1}
      fileList={files}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
      onChange={({ fileList }) => {
        // A failed upload leaves no id behind; the user picks the image again.
        const kept = fileList.filter((f) => f.status !== "error");
        setFiles(kept);
        if (kept.length === 0 && value) {
          onChange?.(undefined);
        }
      }}
      onRemove={() => {
        onChange?.(undefined);
        return true;
      }}
      disabled={disabled || uploading}
      data-testid={testId}
    >
      {files.length === 0 && (
        <Flex vertical align="center" gap={4}>
          <PlusOutlined />
          <Typography.Text style={{ fontSize: 12 }}>{t("funding.deposit.chooseImage")}</Typography.Text>
        </Flex>
      )}
    </Upload>
  );
}
