import type { Platform } from "./platform.ts";
import { trpcMutation } from "./users.ts";

// A 1×1 PNG, the smallest proof image the server accepts by content.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * Funds a user's exchange wallet the way money really arrives: a USDT deposit with a proof image,
 * confirmed by an operator through the CLI. The deposit address must be configured first.
 */
export async function depositUsdt(platform: Platform, token: string, amount: string): Promise<void> {
  const form = new FormData();
  form.append("proof", new Blob([PNG], { type: "image/png" }), "proof.png");
  const upload = (await fetch(`${platform.baseUrl}/uploads/proof`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  }).then((r) => r.json())) as { code: number; message: string; data: { id: string } };
  if (upload.code !== 0) {
    throw new Error(`proof upload: ${upload.message}`);
  }
  const created = (await trpcMutation(platform, token, "deposit.create", {
    channel: "crypto",
    currency: "USDT",
    chain: "ERC20",
    amount,
    tx_hash: `0x${Date.now().toString(16).padStart(64, "0")}`,
    proof_upload_id: upload.data.id,
  })) as { result: { data: { id: number } } };
  await platform.admin("deposits:confirm", String(created.result.data.id));
}
