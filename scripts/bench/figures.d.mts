/** Every figure the benchmark writes (see figures.mjs); `optional` ones need a sandbox mode that may be missing. */
export const FIGURES: Record<string, { part: string; label: string; unit: string; optional?: boolean; aggregate?: 'max'; goal?: { op: '<=' | '>=' | '<' | '='; value: number } }>;
