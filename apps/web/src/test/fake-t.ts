import type { TFunction } from "i18next";

/** A translator that shows the key and its parameters, so a test sees which message a rule chose. */
export const fakeT = ((key: string, params?: Record<string, unknown>) =>
  params && Object.keys(params).length > 0
    ? `${key} ${JSON.stringify(params)}`
    : key) as unknown as TFunction;

/** Runs an antd rule's validator: undefined when it accepts, the message when it refuses. */
export async function refusal(rule: unknown, value: unknown): Promise<string | undefined> {
  const validator = (rule as { validator: (r: unknown, v: unknown) => Promise<void> }).validator;
  try {
    await validator({}, value);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
