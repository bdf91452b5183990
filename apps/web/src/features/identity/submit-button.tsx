import { Button } from "antd";
import type { ReactNode } from "react";

/** The submit button: loading while the call runs, and blocked from a second click meanwhile. */
export function SubmitButton({
  loading,
  testId,
  children,
}: {
  loading: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Button type="primary" htmlType="submit" size="large" block loading={loading} data-testid={testId}>
      {children}
    </Button>
  );
}
