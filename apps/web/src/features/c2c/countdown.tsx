import { secondsLeft } from "@northstar/shared/c2c";
import { Typography } from "antd";
import { useEffect, useState } from "react";

const pad = (n: number) => String(n).padStart(2, "0");

/** Hours, minutes and seconds left until the order's deadline, ticking every second; 00:00:00 after. */
export function Countdown({ deadline, onElapsed }: { deadline: string | Date; onElapsed?: () => void }) {
  const [left, setLeft] = useState(() => secondsLeft(deadline));
  useEffect(() => {
    setLeft(secondsLeft(deadline));
    const timer = setInterval(() => {
      const next = secondsLeft(deadline);
      setLeft(next);
      if (next === 0) {
        clearInterval(timer);
        onElapsed?.();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline, onElapsed]);
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  return (
    <Typography.Text
      strong
      type={left < 600 ? "danger" : undefined}
      data-testid="c2c-countdown"
      style={{ fontVariantNumeric: "tabular-nums", fontSize: 18 }}
    >
      {pad(h)}:{pad(m)}:{pad(s)}
    </Typography.Text>
  );
}
