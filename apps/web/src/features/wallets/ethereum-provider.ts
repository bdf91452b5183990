/**
 * The browser's Ethereum wallet as EIP-1193 describes it (`window.ethereum`): accounts, the chain
 * and `personal_sign`. Nothing else of a wallet library is needed: the server writes the EIP-4361
 * message and checks the signature.
 */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export class NoWalletError extends Error {}
/** The user refused in the wallet (EIP-1193 code 4001). */
export class WalletRejectedError extends Error {}

export function injectedProvider(): Eip1193Provider | undefined {
  const candidate = (window as { ethereum?: Partial<Eip1193Provider> }).ethereum;
  return typeof candidate?.request === "function" ? (candidate as Eip1193Provider) : undefined;
}

function rethrow(error: unknown): never {
  if ((error as { code?: unknown } | null)?.code === 4001) {
    throw new WalletRejectedError();
  }
  throw error;
}

/**
 * Asks the wallet for its account and chain, has the server write the message for them (`issue`),
 * and has the wallet sign it.
 */
export async function signWithWallet(
  issue: (params: { address: string; chainId: number }) => Promise<{ message: string }>,
): Promise<{ message: string; signature: string }> {
  const provider = injectedProvider();
  if (!provider) {
    throw new NoWalletError();
  }
  try {
    const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
    const address = accounts[0];
    if (!address) {
      throw new WalletRejectedError();
    }
    const chainHex = (await provider.request({ method: "eth_chainId" })) as string;
    const { message } = await issue({ address, chainId: Number.parseInt(chainHex, 16) });
    const signature = (await provider.request({
      method: "personal_sign",
      params: [message, address],
    })) as string;
    return { message, signature };
  } catch (error) {
    return rethrow(error);
  }
}
