import { DOCUMENT_TYPE_KEYS, type DocumentType } from "@northstar/shared/kyc";
import type { TFunction } from "i18next";

/**
 * An application's details as the reviewer reads them: each field under its form label, codes as the
 * words the user chose (document type 2 is "Passport", occupation 4 "Finance professional"), in the
 * order of the form. Unknown keys (an older application) are shown as they are, after the known ones.
 */
const ORDER = [
  "nationality",
  "realName",
  "documentType",
  "documentNumber",
  "occupation",
  "monthlyIncome",
  "sourceOfWealth",
  "expectedInvestment",
  "address",
  "note",
] as const;

export function kycDetailRows(
  details: Record<string, unknown>,
  t: TFunction,
  countryName: (code: string) => string | undefined,
): { key: string; label: string; value: string }[] {
  const value = (key: string, v: unknown): string => {
    const text = String(v ?? "");
    switch (key) {
      case "nationality":
        return `${countryName(text) ?? text} (${text})`;
      case "documentType": {
        const name = DOCUMENT_TYPE_KEYS[Number(v) as DocumentType];
        return name ? t(`kyc.documentTypes.${name}`) : text;
      }
      case "occupation":
        return t(`kyc.questions.occupation.o${Number(v)}`, { defaultValue: text });
      case "monthlyIncome":
      case "expectedInvestment":
        return `${text} USDT`;
      default:
        return text;
    }
  };
  const known = ORDER.filter((k) => k in details);
  const other = Object.keys(details)
    .filter((k) => !(ORDER as readonly string[]).includes(k))
    .sort();
  return [...known, ...other].map((key) => ({
    key,
    label: (ORDER as readonly string[]).includes(key) ? t(`kyc.fields.${key}`) : key,
    value: value(key, details[key]),
  }));
}

/** The label of a photo's role in an application (front, back, holding, an asset kind, the bill). */
export function kycPhotoLabel(role: string, t: TFunction): string {
  const fields: Record<string, string> = {
    front_upload_id: "front",
    back_upload_id: "back",
    handheld_upload_id: "handheld",
    bill: "bill",
    proof: "creditProof",
  };
  const field = fields[role];
  if (field) {
    return t(`kyc.fields.${field}`);
  }
  return t(`kyc.assets.${role}`, { defaultValue: role });
}
