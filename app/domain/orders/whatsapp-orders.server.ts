import type { Db } from "~/db/client.server";
import { parseNigerianMobile } from "~/lib/phone";
import { isOrderNumber } from "./orders.server";

/**
 * The number a WhatsApp order came from (docs/decisions/032, 217). A WhatsApp order is recorded when
 * the shopper presses the cart's button, before any number is known; the shopper's message to the
 * shop names its reference, and the Cloud API's signed webhook gives the sender's number. That number
 * is kept on the order, in E.164 like every other, so the rider can call and the admin shows it.
 *
 * Only a pending WhatsApp order without a number takes one, and only a Nigerian mobile (the numbers
 * the shop delivers to): the first chat that names the order gives it its number; a later message
 * naming the same reference from another chat changes nothing.
 */
export async function keepWhatsAppNumber(db: Db, input: { reference: string; from: string }): Promise<boolean> {
  if (!isOrderNumber(input.reference)) return false;
  const phone = parseNigerianMobile(`+${input.from}`);
  if (!phone.ok) return false;
  const result = await db
    .updateTable("orders")
    .set({ phone: phone.phone, updated_at: new Date().toISOString() })
    .where("number", "=", input.reference)
    .where("channel", "=", "whatsapp")
    .where("status", "=", "pending")
    .where("phone", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
