/**
 * Session-state display rules of SPEC section 3.
 * Displayed phone: the phone or else the email, cut to 12 characters.
 * Phone mask: the first 3 characters, asterisks, then the last 6.
 */
export function displayAccount(phone: string | null | undefined, email: string | null | undefined): string {
  const source = phone || email || "";
  return source.slice(0, 12);
}

export function maskPhone(phone: string): string {
  // Too short to hide anything without revealing it all: mask the middle that exists.
  if (phone.length <= 9) {
    return phone.slice(0, 3) + "*".repeat(Math.max(phone.length - 3, 0));
  }
  return `${phone.slice(0, 3)}${"*".repeat(phone.length - 9)}${phone.slice(-6)}`;
}

export function maskEmail(email: string): string {
  const at = email.indexOf("@");
  if (at <= 1) {
    return email;
  }
  return `${email.slice(0, 2)}***${email.slice(at)}`;
}

/**
 * The name the header shows: the nickname, or else the phone masked by SPEC section 3's rule, or else
 * the masked email. A cut email ("someone@exam") says too much and too little at once.
 */
export function headerName(account: {
  nickname?: string | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
}): string {
  const nickname = account.nickname?.trim();
  if (nickname) {
    return nickname;
  }
  if (account.phone) {
    return maskPhone(account.phone);
  }
  return account.email ? maskEmail(account.email) : "";
}
