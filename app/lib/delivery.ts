import type { DeliveryMethod, PaymentMethod } from "~/db/schema";
import { DEFAULT_COUNTRY, NIGERIAN_STATES } from "./nigeria";

/**
 * The delivery fee and the ways to pay for a basket, from the owner's delivery table. Pure, so the
 * checkout page shows it live in the browser; the server computes it again from the database inside
 * the order's transaction and never takes a fee, a method or a total from the form.
 */

export interface DeliveryZoneRule {
  id: number;
  name: string;
  /** kobo */
  fee: number;
  estimate: string;
  payOnDelivery: boolean;
}

export interface DeliveryTable {
  zones: DeliveryZoneRule[];
  /** state -> zone id */
  stateZone: Record<string, number>;
  /** subtotal (kobo) from which delivery is free; null for never */
  freeFrom: number | null;
  pickup: { enabled: boolean; address: string; estimate: string };
}

export interface DeliveryQuote {
  method: DeliveryMethod;
  /** kobo; 0 when free */
  fee: number;
  /** the zone's name, or for pick-up the shop's address (kept on the order as it was) */
  zone: string | null;
  estimate: string;
  /** pay on delivery is offered here (every zone that allows it, and pick-up) */
  payOnDelivery: boolean;
  /** delivery would cost something but the basket reaches the free-delivery threshold */
  freeByThreshold: boolean;
}

export type QuoteProblem =
  /** no state chosen yet, or one that is not a Nigerian state */
  | "state"
  /** we deliver within Nigeria only */
  | "country"
  /** pick-up was asked for but the shop does not offer it */
  | "pickup";

export type QuoteResult = { ok: true; quote: DeliveryQuote } | { ok: false; problem: QuoteProblem };

export function isNigeria(country: string): boolean {
  return country.trim().toLowerCase() === DEFAULT_COUNTRY.toLowerCase();
}

export function nigerianState(state: string): string | null {
  const wanted = state.trim().toLowerCase();
  return NIGERIAN_STATES.find((s) => s.toLowerCase() === wanted) ?? null;
}

export function quoteDelivery(
  table: DeliveryTable,
  input: { method: DeliveryMethod; state: string; country: string; subtotal: number },
): QuoteResult {
  if (input.method === "pickup") {
    if (!table.pickup.enabled) return { ok: false, problem: "pickup" };
    return { ok: true, quote: { method: "pickup", fee: 0, zone: table.pickup.address, estimate: table.pickup.estimate, payOnDelivery: true, freeByThreshold: false } };
  }
  if (!isNigeria(input.country)) return { ok: false, problem: "country" };
  const state = nigerianState(input.state);
  const zone = state ? table.zones.find((z) => z.id === table.stateZone[state]) : undefined;
  if (!zone) return { ok: false, problem: "state" };
  const freeByThreshold = zone.fee > 0 && table.freeFrom !== null && input.subtotal >= table.freeFrom;
  return {
    ok: true,
    quote: {
      method: "delivery",
      fee: freeByThreshold ? 0 : zone.fee,
      zone: zone.name,
      estimate: zone.estimate,
      payOnDelivery: zone.payOnDelivery,
      freeByThreshold,
    },
  };
}

/** What the shop has set up, as the checkout needs it (no secrets). */
export interface PaymentOptions {
  paystack: boolean;
  bankTransfer: boolean;
  payOnDelivery: boolean;
  /**
   * A guest's order (docs/decisions/217): pay on delivery only up to this total (kobo; 0: never).
   * Absent for signed-in shoppers.
   */
  onDeliveryMax?: number | null;
}

export const PAYMENT_METHODS: PaymentMethod[] = ["paystack", "bank_transfer", "on_delivery"];

/** The ways to pay offered for this delivery, in the order the checkout lists them. */
export function paymentMethodsFor(options: PaymentOptions, quote: DeliveryQuote | null, total?: number): PaymentMethod[] {
  const methods: PaymentMethod[] = [];
  if (options.paystack) methods.push("paystack");
  if (options.bankTransfer) methods.push("bank_transfer");
  // A guest's pay on delivery has a ceiling (the known fraud risk of guest orders); the total decides.
  const overGuestCeiling = options.onDeliveryMax != null && (options.onDeliveryMax === 0 || (total ?? 0) > options.onDeliveryMax);
  // Before a state is chosen it is offered if any zone could have it; the server decides on the real one.
  if (options.payOnDelivery && !overGuestCeiling && (quote === null || quote.payOnDelivery)) methods.push("on_delivery");
  return methods;
}

/**
 * The states a shopper cannot pay for an order from, with the ways to pay set up now: in a zone without
 * pay on delivery when neither Paystack nor bank transfer is set up (a new shop's seeded zones outside
 * Lagos). The checkout offers WhatsApp there; the dashboard names them.
 */
export function statesWithoutPayment(table: DeliveryTable, options: PaymentOptions): string[] {
  return NIGERIAN_STATES.filter((state) => {
    const quote = quoteDelivery(table, { method: "delivery", state, country: DEFAULT_COUNTRY, subtotal: 0 });
    return quote.ok && paymentMethodsFor(options, quote.quote).length === 0;
  });
}

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === "string" && (PAYMENT_METHODS as string[]).includes(value);
}

/** Stands for the state in the server-written "no way to pay in {{state}}" text, for the page to fill in. */
export const STATE_SLOT = "\u0000state\u0000";
