import { Button, Drawer, Flex } from "antd";
import { type ReactNode, useState } from "react";
import "./phone-action-sheet.css";

export interface PhoneAction {
  key: string;
  label: ReactNode;
  color: "green" | "danger";
  testId: string;
}

/**
 * A phone's trade screen: the actions (Open long / Open short, Up / Down) stuck to the bottom of the
 * screen above the tab bar, each opening the form in a bottom sheet, as the spot screen has it. The
 * form gets the action chosen, so it can start on that side.
 */
export function PhoneActionSheet({
  actions,
  title,
  testId,
  children,
}: {
  actions: PhoneAction[];
  title: ReactNode;
  testId: string;
  children: (action: string) => ReactNode;
}) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <Flex gap={8} className="ns-phone-action-bar" data-testid={`${testId}-actions`}>
        {actions.map((a) => (
          <Button
            key={a.key}
            block
            size="large"
            color={a.color}
            variant="solid"
            onClick={() => setOpen(a.key)}
            style={{ fontWeight: 600 }}
            data-testid={a.testId}
          >
            {a.label}
          </Button>
        ))}
      </Flex>
      <Drawer
        placement="bottom"
        open={open !== null}
        onClose={() => setOpen(null)}
        title={title}
        size="auto"
        styles={{ body: { padding: 8 }, wrapper: { maxHeight: "92vh" } }}
        className="ns-action-sheet"
        destroyOnHidden
        data-testid={`${testId}-sheet`}
      >
        {open !== null && children(open)}
      </Drawer>
    </>
  );
}
