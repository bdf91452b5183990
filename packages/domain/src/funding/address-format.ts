/**
 * Address format checks per chain. They catch typos and wrong-chain pastes before an operator
 * ever sees the request; they cannot prove an address exists.
 */
const FORMATS: Record<string, RegExp> = {
  ERC20: /^0x[0-9a-fA-F]{40}$/,
  BEP20: /^0x[0-9a-fA-F]{40}$/,
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  BTC: /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  SOL: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  XRP: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
  LTC: /^(ltc1[02-9ac-hj-np-z]{11,71}|[LM3][1-9A-HJ-NP-Za-km-z]{26,33})$/,
  DOGE: /^D[1-9A-HJ-NP-Za-km-z]{25,34}$/,
};

export const CHAINS = Object.keys(FORMATS);

export function isValidAddress(chain: string, address: string): boolean {
  return FORMATS[chain]?.test(address) ?? false;
}
