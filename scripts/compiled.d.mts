/** Node options of a compiled process (scripts/compiled.mjs). */
export declare const COMPILED_NODE_OPTIONS: string[];
/** Node options added for the long-running servers (scripts/compiled.mjs). */
export declare const SERVER_NODE_OPTIONS: string[];
/** The node options of a compiled file, named by its path from the repository's root. */
export declare function compiledNodeOptions(compiled: string): string[];
/** The node arguments that start one of the platform's processes, compiled or through tsx. */
export declare function nodeArgs(
  name: "setup" | "api" | "worker" | "admin",
  options: { compiled: boolean },
): string[];
