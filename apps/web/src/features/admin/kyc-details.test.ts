import { translate } from "@northstar/shared/i18n";
import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { kycDetailRows, kycPhotoLabel } from "./kyc-details.ts";

const t = ((key: string, options?: { defaultValue?: string }) => {
  const text = translate("en", key);
  return text === key && options?.defaultValue !== undefined ? options.defaultValue : text;
}) as unknown as TFunction;

describe("the reviewer's view of an application", () => {
  it("names each field by its form label and shows codes as the words the user chose", () => {
    const rows = kycDetailRows(
      {
        documentNumber: "X1234567",
        documentType: 2,
        realName: "Ada Lovelace",
        nationality: "GB",
        extra: "1",
      },
      t,
      (code) => (code === "GB" ? "United Kingdom" : undefined),
    );
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ["Nationality", "United Kingdom (GB)"],
      ["Real name", "Ada Lovelace"],
      ["Document type", "Passport"],
      // The full number: the reviewer compares it with the photo.
      ["Document number", "X1234567"],
      ["extra", "1"],
    ]);
    const advanced = kycDetailRows({ occupation: 4, monthlyIncome: "5000" }, t, () => undefined);
    expect(advanced.map((r) => r.value)).toEqual(["Finance professional", "5000 USDT"]);
  });

  it("labels the photos by what they show", () => {
    expect(kycPhotoLabel("handheld_upload_id", t)).toBe("Holding the document");
    expect(kycPhotoLabel("bankDeposit", t)).toBe("Bank deposit");
  });
});
