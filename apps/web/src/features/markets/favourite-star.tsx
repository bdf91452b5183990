import { StarFilled, StarOutlined } from "@ant-design/icons";
import { Button, Tooltip, theme } from "antd";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import { useFavourites, useSetFavourite } from "./market-data.ts";
import "./markets.css";

/**
 * The favourite star. Signed-in users mark and unmark; visitors are asked to log in first and
 * come back here afterwards.
 */
export function FavouriteStar({ symbol, size = "small" }: { symbol: string; size?: "small" | "middle" }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const go = useAppNavigate();
  const favourites = useFavourites();
  const setFavourite = useSetFavourite();
  const on = favourites.data?.includes(symbol) ?? false;
  const busy = setFavourite.isPending && setFavourite.variables?.symbol === symbol;
  const label = on ? t("market.favourite.remove") : t("market.favourite.add");

  const onClick = (e: MouseEvent) => {
    e.stopPropagation();
    if (!loggedIn) {
      feedback.confirm({
        title: t("market.favourite.loginTitle"),
        content: t("market.favourite.loginText"),
        okText: t("nav.login"),
        cancelText: t("common.cancel"),
        onOk: () => go(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`),
      });
      return;
    }
    setFavourite.mutate(
      { symbol, favourite: !on },
      {
        onSuccess: () => feedback.success(on ? t("market.favourite.removed") : t("market.favourite.added")),
      },
    );
  };

  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size={size}
        shape="circle"
        aria-label={label}
        aria-pressed={on}
        loading={busy}
        onClick={onClick}
        data-testid={`favourite-${symbol}`}
        icon={
          on ? (
            <StarFilled style={{ color: token.colorWarning }} />
          ) : (
            <StarOutlined style={{ color: token.colorTextTertiary }} />
          )
        }
      />
    </Tooltip>
  );
}
