import { LockOutlined, UnlockOutlined } from "@ant-design/icons";
import { can } from "@northstar/shared/operators";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useOperator } from "./admin-layout.tsx";
import type { UserLookup } from "./admin-types.ts";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";

/**
 * Freeze or unfreeze the user, with a reason, after a confirmation: shown only to roles holding
 * `users.freeze`. Freezing ends every session of the user and refuses sign-in and money actions.
 */
export function UserStatusControl({ user }: { user: Pick<UserLookup, "id" | "uid" | "status"> }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const operator = useOperator();
  const [open, setOpen] = useState(false);
  const freeze = useMutation(trpc.admin.freezeUser.mutationOptions({ meta: { inline: true } }));
  const unfreeze = useMutation(trpc.admin.unfreezeUser.mutationOptions({ meta: { inline: true } }));
  if (!can(operator.role, "users.freeze")) {
    return null;
  }
  const frozen = user.status === "frozen";
  const action = frozen ? "unfreeze" : "freeze";

  return (
    <>
      <Button
        danger={!frozen}
        icon={frozen ? <UnlockOutlined /> : <LockOutlined />}
        onClick={() => setOpen(true)}
        data-testid={`admin-user-${action}`}
      >
        {t(`admin.users.${action}`)}
      </Button>
      <ConfirmActionDialog
        open={open}
        title={t(`admin.users.${action}`)}
        description={t(`admin.users.${action}Description`, { uid: user.uid })}
        okText={t(`admin.users.${action}`)}
        danger={!frozen}
        reasonRequired
        onSubmit={async (reason) => {
          await (frozen ? unfreeze : freeze).mutateAsync({ user_id: user.id, reason });
          await queryClient.invalidateQueries(trpc.admin.user.pathFilter());
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
