import { DEFAULT_PRICES, type PriceTable, type UnitPrice } from '@dataplatform/contract';

/** Stripe's settings; each is undefined when not set. */
export interface PaymentSettings {
  /** `STRIPE_SECRET_KEY`. */
  secretKey: string | undefined;
  /** `STRIPE_WEBHOOK_SECRET`: checks the signature of Stripe's events. */
  webhookSecret: string | undefined;
  /** `STRIPE_API_BASE`: another address of Stripe's API, such as a local stripe-mock (`http://localhost:12111`). */
  apiBase: string | undefined;
}

/** Reads Stripe's settings from the environment. */
export function loadPaymentSettings(env: NodeJS.ProcessEnv): PaymentSettings {
  return {
    secretKey: env.STRIPE_SECRET_KEY || undefined,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    apiBase: env.STRIPE_API_BASE || undefined,
  };
}

/** The names of the settings payments still need; empty when Stripe is configured. */
export function missingPaymentSettings(settings: PaymentSettings): string[] {
  const missing: string[] = [];
  if (!settings.secretKey) missing.push('STRIPE_SECRET_KEY');
  if (!settings.webhookSecret) missing.push('STRIPE_WEBHOOK_SECRET');
  return missing;
}

function whole(value: unknown, name: string, min: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < min)
    throw new Error(
      `DATAPLATFORM_PRICES: ${name} must be an integer of at least ${min}, got ${JSON.stringify(value)}`,
    );
  return value as number;
}

function unitPrice(value: unknown, fallback: UnitPrice, name: string): UnitPrice {
  if (value === undefined) return fallback;
  if (typeof value !== 'object' || value === null)
    throw new Error(`DATAPLATFORM_PRICES: ${name} must be { "per": units, "cents": price }`);
  const { per = fallback.per, cents = fallback.cents } = value as Partial<UnitPrice>;
  return { per: whole(per, `${name}.per`, 1), cents: whole(cents, `${name}.cents`, 0) };
}

/**
 * The price table: `DATAPLATFORM_PRICES` is JSON whose fields replace the defaults one by one, e.g.
 * `{"plans":{"team":14900},"requests":{"per":1000,"cents":1}}`. Every amount is whole cents: a malformed table
 * stops the start rather than bill wrongly.
 */
export function loadPrices(json: string | undefined): PriceTable {
  if (json === undefined || json.trim() === '') return DEFAULT_PRICES;
  let given: Record<string, unknown>;
  try {
    given = JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw new Error('DATAPLATFORM_PRICES must be JSON');
  }
  const plans = { ...DEFAULT_PRICES.plans };
  for (const [plan, cents] of Object.entries((given.plans ?? {}) as Record<string, unknown>))
    plans[plan] = whole(cents, `plans.${plan}`, 0);
  return {
    plans,
    requests: unitPrice(given.requests, DEFAULT_PRICES.requests, 'requests'),
    storageByteDays: unitPrice(given.storageByteDays, DEFAULT_PRICES.storageByteDays, 'storageByteDays'),
    functionInvocations: unitPrice(
      given.functionInvocations,
      DEFAULT_PRICES.functionInvocations,
      'functionInvocations',
    ),
    webhookDeliveries: unitPrice(
      given.webhookDeliveries,
      DEFAULT_PRICES.webhookDeliveries,
      'webhookDeliveries',
    ),
  };
}
