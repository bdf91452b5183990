import { useTestSecretCost } from "../secrets.ts";

export { useTestSecretCost };

/**
 * Runs `work` with secrets hashed at production's cost, then goes back to the test cost: for a hash
 * that a process started at production's cost (a child API) must verify, as it refuses cheaper ones.
 */
export async function atProductionSecretCost<T>(work: () => Promise<T>): Promise<T> {
  useTestSecretCost(false);
  try {
    return await work();
  } finally {
    useTestSecretCost();
  }
}
