import type { Platform } from "./platform.ts";

/** Registers a user through the legacy API (the browser flow itself is tested in account.e2e). */
export async function registerUser(platform: Platform, email: string, password: string): Promise<string> {
  const call = async (name: string, fields: Record<string, string>) => {
    const res = await fetch(`${platform.baseUrl}/web/${name}`, {
      method: "POST",
      body: new URLSearchParams(fields),
    });
    const body = (await res.json()) as { code: number; message: string; data: { token: string } };
    if (body.code !== 0) {
      throw new Error(`${name}: ${body.message}`);
    }
    return body.data;
  };
  await call("getCode", { type: "email", account: email, purpose: "register" });
  const code = await platform.mailbox.waitForCode(email);
  const { token } = await call("userRegister", {
    type: "email",
    account: email,
    password,
    confirm_password: password,
    code,
    nationality: "SG",
    agree: "1",
  });
  return token;
}

/** Calls a tRPC mutation as the user. */
export async function trpcMutation(
  platform: Platform,
  token: string,
  path: string,
  input: unknown,
): Promise<unknown> {
  const res = await fetch(`${platform.baseUrl}/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  if (!res.ok) {
    throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  }
  return res.json();
}
