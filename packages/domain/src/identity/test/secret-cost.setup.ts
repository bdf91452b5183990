import { useTestSecretCost } from "./secret-cost.ts";

// The integration tests' setup file: secrets hash at the test cost in each test file's process (see
// useTestSecretCost). The unit tests keep production's cost, and secrets.test.ts proves it.
useTestSecretCost();
