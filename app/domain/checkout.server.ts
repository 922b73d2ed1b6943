import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "~/db/client.server";
import type { Database } from "~/db/schema";
import type { Translate } from "~/lib/i18n";
import type { Config } from "~/lib/config.server";
import {
  type Address,
  AddressLimitError,
  addressSchema,
  findAddress,
  listAddresses,
  MAX_ADDRESSES,
  saveNewAddress,
} from "./addresses.server";
import { type CartView, cartView, isBuyable } from "./cart.server";
import { catalogChanged } from "./catalog.server";
import { queueMail } from "./mail-outbox.server";
import { orderConfirmationEmail } from "./order-mail.server";
import { type AddressSnapshot, cartFingerprint, findOrderByNumber, insertOrder, OrderError, type PlacedOrder } from "./orders.server";
import type { SessionUser } from "./sessions.server";

/**
 * Checkout: a signed-in shopper turns the cart into an order, in one transaction that re-reads every
 * price and stock level, takes the stock, saves the address when asked, snapshots it, and empties the
 * cart. Amounts come from the database only; nothing the form says about money is believed.
 */

async function accountCartId(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirst();
  return row?.id ?? null;
}

export interface CheckoutView {
  cart: CartView;
  /** what the shopper is shown; the order is refused if the cart no longer matches it */
  seen: string;
  addresses: Address[];
  maxAddresses: number;
  /** a fresh random key per form: the same form submitted twice places one order */
  checkoutKey: string;
}

export async function checkoutView(db: Db, userId: number): Promise<CheckoutView> {
  const cartId = await accountCartId(db, userId);
  const [cart, addresses] = await Promise.all([cartView(db, cartId), listAddresses(db, userId)]);
  return {
    cart,
    seen: cartFingerprint(cartId ?? "", cart.lines.filter(isBuyable)),
    addresses,
    maxAddresses: MAX_ADDRESSES,
    checkoutKey: randomBytes(16).toString("base64url"),
  };
}

export interface CheckoutInput {
  checkoutKey: string;
  seen: string;
  /** a saved address of the shopper's, or null for the address typed into the form */
  addressId: number | null;
  address: Record<string, string>;
  saveAddress: boolean;
}

export type CheckoutProblem =
  | { problem: "empty" }
  /** a price, a quantity or the stock changed since the page was shown */
  | { problem: "changed" }
  | { problem: "soldOut"; productName?: string }
  | { problem: "unknownAddress" }
  | { problem: "invalidAddress"; errors: Partial<Record<keyof AddressSnapshot, string>> };

export type CheckoutResult =
  | { ok: true; order: PlacedOrder; reused: boolean; address: AddressSnapshot | null }
  | ({ ok: false } & CheckoutProblem);

const KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

async function orderWithKey(db: Db, userId: number, key: string): Promise<PlacedOrder | null> {
  const row = await db.selectFrom("orders").select("number").where("checkout_key", "=", key).where("user_id", "=", userId).executeTakeFirst();
  return row ? findOrderByNumber(db, row.number) : null;
}

/** Who the confirmation goes to, and in which language; it is queued in the order's transaction. */
export interface ConfirmationMail {
  t: Translate;
  config: Pick<Config, "publicUrl" | "shop">;
  user: Pick<SessionUser, "email" | "firstName">;
}

export async function placeCheckoutOrder(
  db: Db,
  user: Pick<SessionUser, "id">,
  input: CheckoutInput,
  confirmation?: ConfirmationMail,
): Promise<CheckoutResult> {
  if (!KEY_PATTERN.test(input.checkoutKey)) return { ok: false, problem: "changed" };
  // A resent form: the order it already placed.
  const earlier = await orderWithKey(db, user.id, input.checkoutKey);
  if (earlier) return { ok: true, order: earlier, reused: true, address: null };

  const cartId = await accountCartId(db, user.id);
  const cart = await cartView(db, cartId);
  if (!cartId || cart.lines.length === 0) return { ok: false, problem: "empty" };
  const lines = cart.lines.filter(isBuyable);
  if (lines.length === 0 || cartFingerprint(cartId, lines) !== input.seen) {
    // Something sold out or left the shop since the page was shown: name it; otherwise a price moved.
    const gone = cart.lines.find((l) => l.status !== "available");
    return gone ? { ok: false, problem: "soldOut", productName: gone.name } : { ok: false, problem: "changed" };
  }

  let address: AddressSnapshot;
  let addressId: number | null = null;
  if (input.addressId !== null) {
    const saved = await findAddress(db, user.id, input.addressId);
    if (!saved) return { ok: false, problem: "unknownAddress" };
    address = { street: saved.street, city: saved.city, state: saved.state, country: saved.country };
    addressId = saved.id;
  } else {
    const parsed = addressSchema.safeParse(input.address);
    if (!parsed.success) {
      const errors: Partial<Record<keyof AddressSnapshot, string>> = {};
      for (const issue of parsed.error.issues) errors[issue.path[0] as keyof AddressSnapshot] ??= issue.message;
      return { ok: false, problem: "invalidAddress", errors };
    }
    address = parsed.data;
  }

  try {
    const order = await db.transaction().execute(async (trx) => {
      let linkTo = addressId;
      if (linkTo === null && input.saveAddress) {
        try {
          linkTo = (await saveNewAddress(trx, user.id, address)).id;
        } catch (error) {
          // Four saved already (the box is not offered then): the order still goes through, unsaved.
          if (!(error instanceof AddressLimitError)) throw error;
        }
      }
      const placed = await insertOrder(trx, {
        channel: "checkout",
        userId: user.id,
        lines: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
        address,
        addressId: linkTo,
        takeFromStock: true,
        checkoutKey: input.checkoutKey,
      });
      await trx.deleteFrom("cart_lines").where("cart_id", "=", cartId).execute();
      // The confirmation exists exactly when the order does: a crash after the commit cannot lose it.
      if (confirmation) await queueConfirmation(trx, confirmation, placed, address);
      return placed;
    });
    catalogChanged();
    return { ok: true, order, reused: false, address };
  } catch (error) {
    // The same form submitted twice at once: the unique key let one through; this one finds it.
    const raced = await orderWithKey(db, user.id, input.checkoutKey);
    if (raced) return { ok: true, order: raced, reused: true, address: null };
    if (error instanceof OrderError) return { ok: false, problem: "soldOut", productName: error.productName };
    throw error;
  }
}

async function queueConfirmation(trx: Transaction<Database>, mail: ConfirmationMail, order: PlacedOrder, address: AddressSnapshot): Promise<void> {
  const message = orderConfirmationEmail(mail.t, {
    firstName: mail.user.firstName,
    order,
    address,
    bank: mail.config.shop.bank,
    orderUrl: `${mail.config.publicUrl}/orders/${order.number}`,
  });
  await queueMail(trx, { to: mail.user.email, ...message, kind: "order-confirmation" });
}
