import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import {
  type Account,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  type PublicClient,
  parseUnits,
  type WalletClient,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** The test node's accounts come from this phrase (the well-known development one), so runs repeat. */
export const TEST_CHAIN_MNEMONIC = "test test test test test test test test test test test junk";
export const TEST_CHAIN_ID = 1337;
/**
 * The phrase of the platform's deposit addresses in tests: another than the node's funded accounts,
 * as in production the deposit key is nobody else's.
 */
export const TEST_PLATFORM_MNEMONIC =
  "legal winner thank year wave sausage worth useful legal winner thank yellow";

/** The account-level extended public key (m/44'/60'/0') of a phrase: what CHAIN_XPUB holds. */
export function testXpub(mnemonic: string = TEST_PLATFORM_MNEMONIC): string {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive("m/44'/60'/0'").publicExtendedKey;
}

/** The account-level extended private key of a phrase: what the operator gives a sweep. */
export function testXprv(mnemonic: string = TEST_PLATFORM_MNEMONIC): string {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive("m/44'/60'/0'").privateExtendedKey;
}

/** Test USDT has 6 decimals, as USDT has. */
export const TEST_USDT_DECIMALS = 6;

interface Artifact {
  abi: readonly unknown[];
  bytecode: Hex;
}

/** TestUSDT.sol compiled (`chain/compile-test-usdt.ts` regenerates it). */
export const testUsdtArtifact: Artifact = JSON.parse(
  readFileSync(new URL("./chain/test-usdt.json", import.meta.url), "utf8"),
);

const MINT_ABI = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "owner", type: "address" }],
    outputs: [{ name: "", type: "uint256" }],
  },
] as const;

export interface TestChain {
  rpcUrl: string;
  chainId: number;
  /** Funded, unlocked accounts of the node (1000 ETH each); the first deployed the token. */
  accounts: Address[];
  usdt: Address;
  client: PublicClient;
  wallet: WalletClient;
  /** Mines n empty blocks; returns the new head's number. */
  mine(n?: number): Promise<bigint>;
  /** The head's number. */
  head(): Promise<bigint>;
  snapshot(): Promise<Hex>;
  /** Back to a snapshot (ganache forgets the blocks after it); the next blocks get new hashes. */
  revert(id: Hex): Promise<void>;
  /** Sends ETH (decimal string) from one of the node's accounts; mined at once into one block. */
  sendEth(from: Address, to: Address, amount: string): Promise<Hash>;
  /** Mints test USDT (decimal string) to an address; mined at once. */
  mintUsdt(to: Address, amount: string): Promise<Hash>;
  /** Transfers test USDT (decimal string) from one of the node's accounts; mined at once. */
  transferUsdt(from: Address, to: Address, amount: string): Promise<Hash>;
  usdtBalance(owner: Address): Promise<bigint>;
  /**
   * Signs a test USDT transfer without sending it: the same signed transaction can be sent, forgotten
   * by a revert, and sent again into another block.
   */
  signUsdtTransfer(from: Address, to: Address, amount: string): Promise<Hex>;
  /** Sends a signed transaction; mined at once. */
  sendRaw(raw: Hex): Promise<Hash>;
  close(): Promise<void>;
}

export interface TestChainOptions {
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  host?: string;
  totalAccounts?: number;
  /** Gas per block (ganache's default: 30 million; a bench packing a thousand transfers needs more). */
  blockGasLimit?: bigint;
}

/**
 * Starts an in-process EVM node (ganache) for one test file: a fixed mnemonic, one block per sent
 * transaction and blocks mined on request, the test USDT deployed. Nothing outside the process.
 */
export async function startTestChain(options: TestChainOptions = {}): Promise<TestChain> {
  const { default: ganache } = await import("ganache");
  const server = ganache.server({
    logging: { quiet: true },
    wallet: { mnemonic: TEST_CHAIN_MNEMONIC, totalAccounts: options.totalAccounts ?? 5 },
    chain: { chainId: TEST_CHAIN_ID, vmErrorsOnRPCResponse: true },
    miner: {
      instamine: "eager",
      ...(options.blockGasLimit ? { blockGasLimit: `0x${options.blockGasLimit.toString(16)}` } : {}),
    },
  });
  await server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  const address = (server as unknown as { address(): ReturnType<Server["address"]> }).address();
  if (address === null || typeof address === "string") {
    throw new Error("the test node has no TCP address");
  }
  const rpcUrl = `http://127.0.0.1:${address.port}`;
  // A block of a thousand transactions takes the node seconds to mine.
  const transport = http(rpcUrl, { retryCount: 0, timeout: 300_000 });
  const client = createPublicClient({ transport }) as PublicClient;
  const wallet = createWalletClient({ transport });
  // The node's accounts, signed for here (the same derivation path the node uses).
  const signers = new Map<string, Account>();
  for (let i = 0; i < (options.totalAccounts ?? 5); i++) {
    const account = mnemonicToAccount(TEST_CHAIN_MNEMONIC, { addressIndex: i });
    signers.set(account.address.toLowerCase(), account);
  }
  const signer = (address: Address): Account => {
    const account = signers.get(address.toLowerCase());
    if (!account) {
      throw new Error(`${address} is not an account of the test node`);
    }
    return account;
  };
  const accounts = [...signers.values()].map((a) => a.address);
  const deployer = accounts[0] as Address;
  const chain = {
    id: TEST_CHAIN_ID,
    name: "test",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  } as const;

  const deployHash = await wallet.deployContract({
    abi: testUsdtArtifact.abi,
    bytecode: testUsdtArtifact.bytecode,
    account: signer(deployer),
    chain,
  });
  const receipt = await client.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 20 });
  if (!receipt.contractAddress) {
    throw new Error("TestUSDT was not deployed");
  }
  const usdt = receipt.contractAddress;
  const request = (method: string, params: unknown[] = []) =>
    client.request({ method, params } as never) as Promise<unknown>;
  const write = (from: Address, functionName: "mint" | "transfer", to: Address, amount: string) =>
    wallet.writeContract({
      address: usdt,
      abi: MINT_ABI,
      functionName,
      args: [to, parseUnits(amount, TEST_USDT_DECIMALS)],
      account: signer(from),
      chain,
    });

  let reverts = 0;
  return {
    rpcUrl,
    chainId: TEST_CHAIN_ID,
    accounts,
    usdt,
    client,
    wallet,
    async mine(n = 1) {
      for (let i = 0; i < n; i++) {
        await request("evm_mine");
      }
      return client.getBlockNumber({ cacheTime: 0 });
    },
    head: () => client.getBlockNumber({ cacheTime: 0 }),
    snapshot: async () => (await request("evm_snapshot")) as Hex,
    async revert(id) {
      if ((await request("evm_revert", [id])) !== true) {
        throw new Error(`snapshot ${id} could not be reverted`);
      }
      // Blocks mined in the same second with the same contents would get the same hashes again:
      // move the clock so that the replacing blocks differ from the forgotten ones, as on a real fork.
      reverts += 1;
      await request("evm_increaseTime", [reverts]);
    },
    sendEth: (from, to, amount) =>
      wallet.sendTransaction({ account: signer(from), to, value: parseUnits(amount, 18), chain }),
    mintUsdt: (to, amount) => write(deployer, "mint", to, amount),
    transferUsdt: (from, to, amount) => write(from, "transfer", to, amount),
    usdtBalance: (owner) =>
      client.readContract({ address: usdt, abi: MINT_ABI, functionName: "balanceOf", args: [owner] }),
    async signUsdtTransfer(from, to, amount) {
      const account = signer(from);
      const request = await wallet.prepareTransactionRequest({
        account,
        chain,
        to: usdt,
        data: encodeFunctionData({
          abi: MINT_ABI,
          functionName: "transfer",
          args: [to, parseUnits(amount, TEST_USDT_DECIMALS)],
        }),
      });
      return wallet.signTransaction({ ...request, account, chain } as never);
    },
    sendRaw: (raw) => wallet.sendRawTransaction({ serializedTransaction: raw }),
    close: () => server.close(),
  };
}
