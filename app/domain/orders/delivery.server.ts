import type { Db } from "~/db/client.server";
import type { Config } from "~/platform/config.server";
import { type DeliveryTable, type PaymentOptions, statesWithoutPayment } from "~/lib/delivery";

/**
 * Delivery zones and fees by Nigerian state, the free-delivery threshold and pick-up at the shop, as
 * the owner set them at /admin/delivery. Checkout reads them here (inside the order's transaction when
 * it places an order); the pure fee rule is in ~/lib/delivery.
 */

export async function loadDeliveryTable(db: Db): Promise<DeliveryTable> {
  const [zones, states, settings] = await Promise.all([
    db.selectFrom("delivery_zones").select(["id", "name", "fee", "estimate", "pay_on_delivery"]).orderBy("position").orderBy("id").execute(),
    db.selectFrom("delivery_states").select(["state", "zone_id"]).execute(),
    db.selectFrom("delivery_settings").selectAll().where("id", "=", 1).executeTakeFirst(),
  ]);
  return {
    zones: zones.map((z) => ({ id: z.id, name: z.name, fee: Number(z.fee), estimate: z.estimate, payOnDelivery: Number(z.pay_on_delivery) === 1 })),
    stateZone: Object.fromEntries(states.map((s) => [s.state, s.zone_id])),
    freeFrom: settings?.free_from == null ? null : Number(settings.free_from),
    pickup: {
      enabled: Number(settings?.pickup_enabled ?? 0) === 1,
      address: settings?.pickup_address ?? "",
      estimate: settings?.pickup_estimate ?? "",
    },
  };
}

/** The ways to pay the shop has set up (Paystack needs its secret key, bank transfer the BANK_* account). */
export function paymentOptions(config: Pick<Config, "shop" | "payOnDelivery" | "paystack">): PaymentOptions {
  return { paystack: Boolean(config.paystack?.secretKey), bankTransfer: config.shop.bank !== null, payOnDelivery: config.payOnDelivery };
}

/** What a new shop still has to set up to sell everywhere it delivers: the dashboard's checklist. */
export interface ShopSetup {
  /** a way to pay before delivery: Paystack or bank transfer */
  paymentOnline: boolean;
  paystack: boolean;
  bankDetails: boolean;
  /** delivery zones, and how many */
  zones: number;
  /** OWNER_EMAIL set (else new-order alerts go to the shop's public address) */
  ownerEmail: boolean;
  /** the states whose shoppers are offered no way to pay (they can order on WhatsApp) */
  statesWithoutPayment: string[];
}

export async function shopSetup(db: Db, config: Pick<Config, "shop" | "payOnDelivery" | "paystack" | "ownerEmailSet">): Promise<ShopSetup> {
  const table = await loadDeliveryTable(db);
  const options = paymentOptions(config);
  return {
    paymentOnline: options.paystack || options.bankTransfer,
    paystack: options.paystack,
    bankDetails: options.bankTransfer,
    zones: table.zones.length,
    ownerEmail: config.ownerEmailSet,
    statesWithoutPayment: statesWithoutPayment(table, options),
  };
}
