// Regenerates test-usdt.json (abi and bytecode of TestUSDT.sol) with solc and OpenZeppelin's ERC20,
// both from npm, offline: `pnpm --filter @northstar/domain exec tsx src/test-support/chain/compile-test-usdt.ts`.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const solc = require("solc") as { compile(input: string, options?: unknown): string; version(): string };
const here = dirname(fileURLToPath(import.meta.url));

const input = {
  language: "Solidity",
  sources: { "TestUSDT.sol": { content: readFileSync(join(here, "TestUSDT.sol"), "utf8") } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    // Paris bytecode (no PUSH0) runs under every hardfork the test node offers.
    evmVersion: "paris",
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
  },
};

function findImports(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), "utf8") };
  } catch {
    return { error: `not found: ${path}` };
  }
}

const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
};
const errors = (output.errors ?? []).filter((e) => e.severity === "error");
if (errors.length > 0) {
  throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
}
const contract = output.contracts["TestUSDT.sol"]?.TestUSDT;
if (!contract) {
  throw new Error("TestUSDT missing from the compiler's output");
}
const artifact = {
  contractName: "TestUSDT",
  compiler: solc.version(),
  abi: contract.abi,
  bytecode: `0x${contract.evm.bytecode.object}`,
};
writeFileSync(join(here, "test-usdt.json"), `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`test-usdt.json written (${contract.evm.bytecode.object.length / 2} bytes of bytecode)`);
