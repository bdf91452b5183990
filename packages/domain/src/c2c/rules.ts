import type { Language } from "@northstar/shared/languages";
import { eq } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { sanitizeBody } from "../content/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { c2cRules } from "./c2c.table.ts";

const RULES_ID = "rules";

/**
 * The operators' rules page in the request's language (English when that one is missing), or null
 * when none is written: the web then shows the built-in rules made from the policy values.
 */
export async function getC2cRules(db: DbOrTx, lang: Language) {
  const [row] = await db.select().from(c2cRules).where(eq(c2cRules.id, RULES_ID));
  const text = row ? (row.texts[lang] ?? row.texts.en ?? null) : null;
  return { body: text?.body ?? null, updatedAt: row?.updatedAt ?? null };
}

/** Every language's rules text, for the back office's editor. */
export async function getC2cRulesAll(db: DbOrTx) {
  const [row] = await db.select().from(c2cRules).where(eq(c2cRules.id, RULES_ID));
  return row?.texts ?? {};
}

/** Replaces the rules page; bodies are sanitised on the way in. */
export async function saveC2cRules(db: DbOrTx, texts: Record<string, { body: string }>, actor: string) {
  const clean = Object.fromEntries(
    Object.entries(texts)
      .filter(([, t]) => t.body.trim() !== "")
      .map(([lang, t]) => [lang, { body: sanitizeBody(t.body) }]),
  );
  await db
    .insert(c2cRules)
    .values({ id: RULES_ID, texts: clean })
    .onConflictDoUpdate({ target: c2cRules.id, set: { texts: clean, updatedAt: new Date() } });
  await recordAudit(db, { actor, action: "c2c.rules.save", details: { languages: Object.keys(clean) } });
}
