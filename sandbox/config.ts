import { z } from 'zod';
import { DEFAULT_FAULTS, DEFAULT_VARIANTS } from './defaults';
import { RATE_LIMIT_WINDOWS } from './rate-limiter';
import type { SandboxFaults, SandboxVariants } from './types';
import { LOGOUT_LAPSES } from './logout-lapses';

const share = z.number().min(0).max(1);

export const faultsSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(120_000),
  errorRate: share,
  dropRate: share,
  lostAnswerRate: share,
  rateLimit: z.number().int().min(0),
  rateLimitWindow: z.enum(RATE_LIMIT_WINDOWS),
});

export const variantsSchema = z.strictObject({
  listBody: z.enum(['success-data', 'bare-array', 'users-key', 'data-meta']),
  paginationHeaders: z.boolean(),
  perPageCap: z.number().int().min(1).max(1000),
  tokenCreatedAt: z.boolean(),
  erasureResponse: z.enum(['json', 'empty-200', '204', 'success-false', 'error-200']),
  notFoundBody: z.enum(['json', 'empty', 'error-200']),
  unauthorizedBody: z.enum(['empty', 'json']),
  logoutErrorStatus: z.union([z.literal(400), z.literal(422), z.literal(200)]),
  logoutSuccessBody: z.enum(['json', 'empty', 'success-false']),
  retryAfter: z.enum(['seconds', 'http-date', 'none']),
  logoutLapses: z.array(z.enum(LOGOUT_LAPSES)).max(LOGOUT_LAPSES.length),
});

/** PUT /sandbox/faults: either one flat object mixing both kinds of field, or { faults, variants }. */
export const faultsUpdateSchema = z.union([
  z.strictObject({ faults: faultsSchema.partial().optional(), variants: variantsSchema.partial().optional() }),
  z.strictObject({ ...faultsSchema.partial().shape, ...variantsSchema.partial().shape }),
]);

export type FaultsUpdate = z.infer<typeof faultsUpdateSchema>;

/** Splits a validated update into its faults part and its variants part. */
export function splitUpdate(update: FaultsUpdate): { faults: Partial<SandboxFaults>; variants: Partial<SandboxVariants> } {
  if ('faults' in update || 'variants' in update) {
    const nested = update as { faults?: Partial<SandboxFaults>; variants?: Partial<SandboxVariants> };
    return { faults: nested.faults ?? {}, variants: nested.variants ?? {} };
  }
  const faults: Partial<SandboxFaults> = {};
  const variants: Partial<SandboxVariants> = {};
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    if (key in DEFAULT_FAULTS) Object.assign(faults, { [key]: value });
    else Object.assign(variants, { [key]: value });
  }
  return { faults, variants };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
}

/** Validates before anything changes, so a bad call leaves the running sandbox as it was. */
export function validFaults(input: Partial<SandboxFaults>): Partial<SandboxFaults> {
  const result = faultsSchema.partial().safeParse(input);
  if (!result.success) throw new Error(`Invalid sandbox faults: ${describeIssues(result.error)}`);
  return result.data;
}

export function validVariants(input: Partial<SandboxVariants>): Partial<SandboxVariants> {
  const result = variantsSchema.partial().safeParse(input);
  if (!result.success) throw new Error(`Invalid sandbox variants: ${describeIssues(result.error)}`);
  return result.data;
}

export { describeIssues };

/** The live, mutable configuration shared by the routes. */
export class SandboxConfig {
  faults: SandboxFaults;
  variants: SandboxVariants;

  constructor(private readonly initialFaults: Partial<SandboxFaults> = {}, private readonly initialVariants: Partial<SandboxVariants> = {}) {
    this.faults = { ...DEFAULT_FAULTS, ...validFaults(initialFaults) };
    this.variants = { ...DEFAULT_VARIANTS, ...validVariants(initialVariants) };
  }

  setFaults(update: Partial<SandboxFaults>): void {
    this.faults = { ...this.faults, ...validFaults(update) };
  }

  setVariants(update: Partial<SandboxVariants>): void {
    this.variants = { ...this.variants, ...validVariants(update) };
  }

  /** Back to what the sandbox was started with. */
  restore(): void {
    this.faults = { ...DEFAULT_FAULTS, ...this.initialFaults };
    this.variants = { ...DEFAULT_VARIANTS, ...this.initialVariants };
  }
}
