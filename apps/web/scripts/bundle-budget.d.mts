export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export const BUDGET_BYTES: number;
export const PAGES: Record<string, { path: string; modules: string[]; ceiling: number }>;
export function pageChunks(manifest: Record<string, ManifestChunk>, modules: string[]): string[];
export function measure(dist: string, files: string[]): { raw: number; gzip: number; brotli: number };
