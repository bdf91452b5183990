import type { TPriceSource, TRecordedTick } from "@northstar/shared/contracts/markets";
import { Button, Flex, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { applyClientRules } from "../../lib/client-rules.ts";
import { toApiError } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { ticksCsv } from "./ticks-csv.ts";

/**
 * Where a settlement's price came from: "Price 64,210.5 from binance at 12:00:00.412" (the source's
 * own time, in the user's zone), and a download of the recorded ticks a minute either side of it.
 */
export function PriceSource({
  source,
  fileName,
  loadTicks,
}: {
  source: TPriceSource;
  fileName: string;
  loadTicks: () => Promise<{ ticks: TRecordedTick[] }>;
}) {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  const [loading, setLoading] = useState(false);
  const name =
    source.source === null
      ? t("market.provenance.unrecorded")
      : source.source === "simulator"
        ? t("market.provenance.simulator")
        : source.source.startsWith("replay:")
          ? t("market.provenance.replay")
          : source.source;
  const download = async () => {
    setLoading(true);
    try {
      const { ticks } = await loadTicks();
      const url = URL.createObjectURL(new Blob([ticksCsv(ticks)], { type: "text/csv" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = fileName;
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      applyClientRules(toApiError(error));
    } finally {
      setLoading(false);
    }
  };
  return (
    <Flex gap={8} align="center" wrap data-testid="price-source" data-source={source.source ?? ""}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("market.provenance.line", {
          price: format.price(source.price),
          source: name,
          time: dayjs(source.source_time ?? source.time).format("HH:mm:ss.SSS"),
        })}
      </Typography.Text>
      <Button
        size="small"
        type="link"
        loading={loading}
        onClick={download}
        data-testid="price-source-download"
      >
        {t("market.provenance.download")}
      </Button>
    </Flex>
  );
}
