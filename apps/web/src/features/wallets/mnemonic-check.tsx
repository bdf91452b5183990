import { Alert, Button, Flex, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isValidMnemonic } from "./mnemonic.ts";

/**
 * Mnemonic verification: a BIP-39 recovery phrase is checked in the browser against the English
 * wordlist and its checksum. The phrase stays in this component's state: it is never sent to the
 * server, stored or logged, and the field is cleared on leaving the page.
 */
export function MnemonicCheck() {
  const { t } = useTranslation();
  const [phrase, setPhrase] = useState("");
  const [result, setResult] = useState<boolean | null>(null);
  const [checking, setChecking] = useState(false);

  const check = async () => {
    setChecking(true);
    try {
      setResult(await isValidMnemonic(phrase));
    } finally {
      setChecking(false);
    }
  };

  return (
    <Flex vertical gap={8} data-testid="mnemonic-check">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t("wallet.mnemonic.title")}
      </Typography.Title>
      <Typography.Text type="secondary">{t("wallet.mnemonic.intro")}</Typography.Text>
      <Form layout="vertical" onFinish={() => void check()} requiredMark={false}>
        <Form.Item label={t("wallet.mnemonic.label")} style={{ marginBottom: 8 }}>
          <Input.TextArea
            value={phrase}
            onChange={(e) => {
              setPhrase(e.target.value);
              setResult(null);
            }}
            placeholder={t("wallet.mnemonic.placeholder")}
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="none"
            spellCheck={false}
            rows={3}
            maxLength={400}
            data-testid="mnemonic-input"
          />
        </Form.Item>
        <Button htmlType="submit" loading={checking} disabled={!phrase.trim()} data-testid="mnemonic-submit">
          {t("wallet.mnemonic.check")}
        </Button>
      </Form>
      {result !== null && (
        <Alert
          type={result ? "success" : "error"}
          showIcon
          title={t(result ? "wallet.mnemonic.valid" : "wallet.mnemonic.invalid")}
          data-testid={result ? "mnemonic-valid" : "mnemonic-invalid"}
        />
      )}
    </Flex>
  );
}
