/** Node options of a compiled process (scripts/compiled.mjs). */
export declare const COMPILED_NODE_OPTIONS: string[];
/** The node arguments that start one of the platform's processes, compiled or through tsx. */
export declare function nodeArgs(
  name: "setup" | "api" | "worker" | "admin",
  options: { compiled: boolean },
): string[];
