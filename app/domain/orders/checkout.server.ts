import { ownerAlert, queueNewOrderAlert } from "./order-alerts.server";
import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { type Db, isPostgres, now } from "~/db/client.server";
import type { Database, DeliveryMethod } from "~/db/schema";
import {
  type DeliveryQuote,
  type DeliveryTable,
  isPaymentMethod,
  nigerianState,
  type PaymentOptions,
  paymentMethodsFor,
  type QuoteProblem,
  quoteDelivery,
} from "~/lib/delivery";
import type { Translate } from "~/lib/i18n";
import type { Config } from "~/platform/config.server";
import { parseNigerianMobile } from "~/lib/phone";
import {
  type Address,
  AddressLimitError,
  addressSchema,
  findAddress,
  listAddresses,
  MAX_ADDRESSES,
  saveNewAddress,
} from "../accounts/addresses.server";
import { type CartLine, type CartView, cartView, isBuyable } from "../shopper/cart.server";
import { type CatalogScope, catalogChanged, stockTakenScope } from "../catalogue/catalog.server";
import { loadDeliveryTable } from "./delivery.server";
import { queueMail } from "../operations/mail-outbox.server";
import { MAX_OPEN_CHECKOUT_ORDERS, openCheckoutOrders, openGuestOrders, secondsUntilExpiry } from "./order-expiry.server";
import { TooManyAttempts } from "../operations/rate-limits.server";
import { markCartRecovered } from "../messages/cart-reminders.server";
import { grantConsent } from "../messages/consent.server";
import { queueOrderMessage } from "../messages/notify.server";
import { orderConfirmationEmail } from "./order-mail.server";
import { checkHolds, DEFAULT_HOLDS, type HoldLimits, type HoldProblem, overProductLimit } from "./order-holds.server";
import { type AddressSnapshot, cartFingerprint, findOrderByNumber, insertOrder, OrderError, orderedProducts, type PlacedOrder } from "./orders.server";
import type { SessionUser } from "../accounts/sessions.server";
import { spendOnOrder } from "../credit/credit.server";
import { type CartCodeView, cartCode, cartCodeOutcome, type CodeCustomer, codeView } from "../promotions/codes.server";

/**
 * Checkout: a signed-in shopper turns the cart into an order, in one transaction that re-reads every
 * price and stock level, takes the stock, saves the address when asked, snapshots it, and empties the
 * cart. Amounts come from the database only; nothing the form says about money is believed.
 */

/**
 * Who is ordering: a signed-in account, or a guest (no account) whose cart is the browser's and whose
 * order keeps the contact details given (docs/decisions/217). Every other rule is the same for both.
 */
export type Buyer =
  | { kind: "account"; userId: number }
  | {
      kind: "guest";
      /** the browser's cart (cookie); null when it has none */
      cartId: string | null;
      /** checked and normalised by the caller (guest-orders.server.ts) */
      name: string;
      email: string;
      /** SHA-256 (hex) of the order's private link's token, and the link itself for the confirmation */
      accessTokenHash: string;
      link: string;
      /** the language the guest used: kept on the order, so its status e-mails and messages speak it */
      locale?: string | null;
    };

async function accountCartId(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Takes the account's cart for this transaction: SELECT … FOR UPDATE on PostgreSQL; on SQLite a write
 * to the cart row first, so the transaction holds the database's write lock before it reads anything.
 * Returns the cart's id, or null when the account has none.
 */
async function lockAccountCart(trx: Transaction<Database>, userId: number): Promise<string | null> {
  if (isPostgres(trx)) {
    const row = await trx.selectFrom("carts").select("id").where("user_id", "=", userId).forUpdate().executeTakeFirst();
    return row?.id ?? null;
  }
  const row = await trx.updateTable("carts").set({ updated_at: now() }).where("user_id", "=", userId).returning("id").executeTakeFirst();
  return row?.id ?? null;
}

/** The same for a guest's cart, by its id (the cookie's); null when there is no such cart. */
async function lockGuestCart(trx: Transaction<Database>, cartId: string | null): Promise<string | null> {
  if (!cartId) return null;
  if (isPostgres(trx)) {
    const row = await trx.selectFrom("carts").select("id").where("id", "=", cartId).where("user_id", "is", null).forUpdate().executeTakeFirst();
    return row?.id ?? null;
  }
  const row = await trx.updateTable("carts").set({ updated_at: now() }).where("id", "=", cartId).where("user_id", "is", null).returning("id").executeTakeFirst();
  return row?.id ?? null;
}

function buyerCartId(db: Db, buyer: Buyer): Promise<string | null> {
  return buyer.kind === "account" ? accountCartId(db, buyer.userId) : Promise.resolve(buyer.cartId);
}

/** The cart's lines that can be bought, if they are what the shopper was shown; otherwise what is wrong. */
async function cartProblem(
  db: Db,
  cartId: string | null,
  seen: string,
): Promise<{ problem: "empty" | "changed" | "soldOut"; ok: false; productName?: string } | { cartId: string; lines: CartLine[]; subtotal: number }> {
  const cart = await cartView(db, cartId);
  if (!cartId || cart.lines.length === 0) return { ok: false, problem: "empty" };
  const lines = cart.lines.filter(isBuyable);
  if (lines.length === 0 || cartFingerprint(cartId, lines) !== seen) {
    // Something sold out or left the shop since the page was shown: name it; otherwise a price moved.
    const gone = cart.lines.find((l) => l.status !== "available");
    return gone ? { ok: false, problem: "soldOut", productName: gone.name } : { ok: false, problem: "changed" };
  }
  return { cartId, lines, subtotal: cart.subtotal };
}

export interface CheckoutView {
  cart: CartView;
  /** what the shopper is shown; the order is refused if the cart no longer matches it */
  seen: string;
  addresses: Address[];
  maxAddresses: number;
  /** a fresh random key per form: the same form submitted twice places one order */
  checkoutKey: string;
  /** fees by state, so the page shows the fee as soon as a state is chosen */
  delivery: DeliveryTable;
  payment: PaymentOptions;
  /** the account's mobile number (E.164), offered when the chosen address has none */
  phone: string | null;
  /** the discount code on the cart: what it takes off, or why it does not apply (docs/decisions/219) */
  code: CartCodeView | null;
}

export async function checkoutView(db: Db, userId: number, payment: PaymentOptions): Promise<CheckoutView> {
  const cartId = await accountCartId(db, userId);
  const [cart, addresses, delivery, account] = await Promise.all([
    cartView(db, cartId),
    listAddresses(db, userId),
    loadDeliveryTable(db),
    db.selectFrom("users").select(["phone", "email"]).where("id", "=", userId).executeTakeFirst(),
  ]);
  const outcome = await cartCodeOutcome(db, cartId, cart.lines.filter(isBuyable), { userId, email: account?.email ?? null, phone: account?.phone ?? null });
  return {
    code: codeView(outcome),
    phone: account?.phone ?? null,
    delivery,
    payment,
    cart,
    seen: cartFingerprint(cartId ?? "", cart.lines.filter(isBuyable)),
    addresses,
    maxAddresses: MAX_ADDRESSES,
    checkoutKey: randomBytes(16).toString("base64url"),
  };
}

/** The checkout page of a guest (docs/decisions/217): the browser's cart, no saved addresses, no account number. */
export async function guestCheckoutView(db: Db, cartId: string | null, payment: PaymentOptions): Promise<CheckoutView> {
  const [cart, delivery] = await Promise.all([cartView(db, cartId), loadDeliveryTable(db)]);
  // Who the guest is is known only when the order is placed: the code's per-customer limit is judged then.
  const outcome = await cartCodeOutcome(db, cartId, cart.lines.filter(isBuyable), null);
  return {
    code: codeView(outcome),
    phone: null,
    delivery,
    payment,
    cart,
    seen: cartFingerprint(cartId ?? "", cart.lines.filter(isBuyable)),
    addresses: [],
    maxAddresses: 0,
    checkoutKey: randomBytes(16).toString("base64url"),
  };
}

export interface CheckoutInput {
  checkoutKey: string;
  seen: string;
  /** a saved address of the shopper's, or null for the address typed into the form */
  addressId: number | null;
  address: Record<string, string>;
  /** the mobile number as typed: the rider calls it (required, for delivery and pick-up alike) */
  phone: string;
  saveAddress: boolean;
  /** "delivery" or "pickup", as the form says (anything else is refused) */
  deliveryMethod: string;
  /** as the form says; checked against what the shop offers for this delivery */
  paymentMethod: string;
  /**
   * The total (kobo) the page showed when the shopper pressed the button. Never used as an amount:
   * when it is not the total computed here, nothing is placed and the page shows the real one.
   */
  expectedTotal: string;
  /** the ways to pay the shop has set up */
  payment: PaymentOptions;
}

export type CheckoutProblem =
  | { problem: "empty" }
  /** a price, a quantity or the stock changed since the page was shown */
  | { problem: "changed" }
  | { problem: "soldOut"; productName?: string }
  | { problem: "unknownAddress" }
  /** the account (a guest: the e-mail or the phone) has MAX_OPEN_CHECKOUT_ORDERS unpaid orders already; one expires in retryAfter seconds */
  | { problem: "tooManyOpen"; count: number; retryAfter: number }
  /** a guest: too many new orders from this IP address this hour */
  | { problem: "tooManyOrders"; retryAfter: number }
  /** over what one order, or the unpaid orders of an account or an address, may hold (docs/decisions/213) */
  | HoldProblem
  /** the typed address, or the mobile number, is refused (translation keys by field) */
  | { problem: "invalidAddress"; errors: CheckoutFieldErrors }
  /** no delivery to that address (outside Nigeria, no such state) or pick-up not offered */
  | { problem: "delivery"; reason: QuoteProblem }
  /** a way to pay the shop does not offer for this delivery */
  | { problem: "payment" }
  /** no way to pay is set up for this delivery (the state, or pick-up): order on WhatsApp instead */
  | { problem: "noPayment"; where: string }
  /** the page showed another total (no JavaScript, or the fees changed): here is the real one, confirm it */
  | { problem: "confirm"; quote: DeliveryQuote; subtotal: number; total: number; where: string };

export type CheckoutFieldErrors = Partial<Record<keyof AddressSnapshot | "phone" | "name" | "email", string>>;

export type CheckoutResult =
  | { ok: true; order: PlacedOrder; reused: boolean; address: AddressSnapshot | null }
  | ({ ok: false } & CheckoutProblem);

class DeliveryChanged extends Error {
  constructor(
    readonly quote: DeliveryQuote,
    readonly subtotal: number,
    readonly total: number,
  ) {
    super("the delivery fee or the total changed while ordering");
  }
}

const KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

async function orderWithKey(db: Db, buyer: Buyer, key: string): Promise<PlacedOrder | null> {
  const row = await db
    .selectFrom("orders")
    .select("number")
    .where("checkout_key", "=", key)
    .$if(buyer.kind === "account", (qb) => qb.where("user_id", "=", (buyer as { userId: number }).userId))
    // A guest's resent form: the order placed from the same cart (nobody else's key finds anything).
    .$if(buyer.kind === "guest", (qb) => qb.where("user_id", "is", null).where("cart_id", "=", (buyer as { cartId: string | null }).cartId ?? ""))
    .executeTakeFirst();
  return row ? findOrderByNumber(db, row.number) : null;
}

/** Who the confirmation goes to, and in which language; it is queued in the order's transaction. */
export interface ConfirmationMail {
  t: Translate;
  config: Pick<Config, "publicUrl" | "shop"> & Partial<Pick<Config, "messaging">>;
  user: Pick<SessionUser, "email" | "firstName">;
}

export interface CheckoutOptions {
  /** queue the confirmation e-mail with the order */
  mail?: ConfirmationMail;
  /** ORDER_HOLD_HOURS, for the Retry-After of a refusal over the open-order cap */
  holdHours?: number;
  /** what unpaid orders may hold (ORDER_LINE_LIMIT, HELD_UNITS_PER_ACCOUNT, HELD_UNITS_PER_IP) */
  holds?: HoldLimits;
  /** the shopper's address, kept on the order: units held per address are capped */
  clientIp?: string | null;
  /** a guest's new order counts against its IP address; throws TooManyAttempts over the limit */
  countNewOrder?: () => Promise<void>;
  /** a guest's name and e-mail refused (checked by the caller): shown with the address's and the phone's */
  contactErrors?: CheckoutFieldErrors;
  /** the shopper ticked the marketing opt-in (docs/decisions/220), recorded with the order in this language */
  marketingOptIn?: { locale: string; wording: string } | null;
}

export async function placeCheckoutOrder(
  db: Db,
  user: Pick<SessionUser, "id">,
  input: CheckoutInput,
  options: CheckoutOptions = {},
): Promise<CheckoutResult> {
  return placeOrder(db, { kind: "account", userId: user.id }, input, options);
}

/** A signed-in shopper's or a guest's checkout: the same rules, transaction and guarantees for both. */
export async function placeOrder(db: Db, buyer: Buyer, input: CheckoutInput, options: CheckoutOptions = {}): Promise<CheckoutResult> {
  const confirmation = options.mail;
  const user = buyer.kind === "account" ? { id: buyer.userId } : null;
  if (!KEY_PATTERN.test(input.checkoutKey)) return { ok: false, problem: "changed" };
  // A resent form: the order it already placed.
  const earlier = await orderWithKey(db, buyer, input.checkoutKey);
  if (earlier) return { ok: true, order: earlier, reused: true, address: null };

  // A first look without a lock, so an empty or changed cart is reported before the address is.
  const seenProblem = await cartProblem(db, await buyerCartId(db, buyer), input.seen);
  if ("problem" in seenProblem) return seenProblem;

  if (input.deliveryMethod !== "delivery" && input.deliveryMethod !== "pickup") return { ok: false, problem: "delivery", reason: "state" };
  const method: DeliveryMethod = input.deliveryMethod;
  let address: AddressSnapshot | null = null;
  let addressId: number | null = null;
  let savedPhone: string | null = null;
  const errors: CheckoutFieldErrors = { ...options.contactErrors };
  const phone = parseNigerianMobile(input.phone);
  if (!phone.ok) errors.phone = phone.error;
  if (method === "pickup") {
    // Collected at the shop: no address is needed, none is saved.
  } else if (input.addressId !== null) {
    // A guest has no saved addresses.
    const saved = user ? await findAddress(db, user.id, input.addressId) : null;
    if (!saved) return { ok: false, problem: "unknownAddress" };
    address = { street: saved.street, city: saved.city, state: saved.state, country: saved.country };
    addressId = saved.id;
    savedPhone = saved.phone;
  } else {
    const parsed = addressSchema.safeParse(input.address);
    if (parsed.success) address = parsed.data;
    else for (const issue of parsed.error.issues) errors[issue.path[0] as keyof AddressSnapshot] ??= issue.message;
  }
  if (!phone.ok || Object.keys(errors).length > 0) return { ok: false, problem: "invalidAddress", errors };

  const quoteFor = (table: DeliveryTable, subtotal: number) =>
    quoteDelivery(table, { method, state: address?.state ?? "", country: address?.country ?? "", subtotal });
  // The cart's discount code, as the page showed it: the fee is quoted on the goods after it (docs/decisions/219).
  // Its per-customer limit counts the account, or a guest's e-mail and phone.
  const account = user ? await db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirst() : null;
  const customer = { userId: user?.id ?? null, email: buyer.kind === "guest" ? buyer.email : (account?.email ?? null), phone: phone.phone };
  const code = codeView(await cartCodeOutcome(db, seenProblem.cartId, seenProblem.lines, customer));
  const discount = code?.discount ?? 0;
  const quotedGoods = quoteFor(await loadDeliveryTable(db), seenProblem.subtotal - discount);
  const quoted = quotedGoods.ok && code?.freeDelivery && quotedGoods.quote.method === "delivery" ? { ...quotedGoods, quote: { ...quotedGoods.quote, fee: 0 } } : quotedGoods;
  if (!quoted.ok) return { ok: false, problem: "delivery", reason: quoted.problem };
  const paymentMethod = input.paymentMethod;
  const quotedTotal = seenProblem.subtotal + quoted.quote.fee;
  if (paymentMethodsFor(input.payment, quoted.quote, quotedTotal).length === 0) {
    return { ok: false, problem: "noPayment", where: method === "pickup" ? "" : (nigerianState(address?.state ?? "") ?? "") };
  }
  if (!isPaymentMethod(paymentMethod) || !paymentMethodsFor(input.payment, quoted.quote, quotedTotal).includes(paymentMethod)) {
    return { ok: false, problem: "payment" };
  }
  const confirm = (quote: DeliveryQuote, subtotal: number, total: number) =>
    ({ ok: false as const, problem: "confirm" as const, quote, subtotal, total, where: address?.state ?? "" });
  const expected = /^\d{1,15}$/.test(input.expectedTotal) ? Number(input.expectedTotal) : null;
  const shownTotal = seenProblem.subtotal - discount + quoted.quote.fee;
  if (expected !== shownTotal) return confirm(quoted.quote, seenProblem.subtotal, shownTotal);
  // Only an order about to be placed counts against a guest's IP address (not the confirm step).
  if (options.countNewOrder) {
    try {
      await options.countNewOrder();
    } catch (error) {
      if (error instanceof TooManyAttempts) return { ok: false, problem: "tooManyOrders", retryAfter: error.retryAfterSeconds };
      throw error;
    }
  }

  // What the order's stock taken altered, for the pages kept (docs/decisions/205).
  let stockTaken: CatalogScope = "anything";
  try {
    const outcome = await db.transaction().execute(async (trx): Promise<CheckoutResult> => {
      // One cart, one order: the cart is locked before it is read, so a second tab waits here until
      // the first has placed its order and emptied the cart, then finds it empty (or its own order).
      const cartId = buyer.kind === "account" ? await lockAccountCart(trx, buyer.userId) : await lockGuestCart(trx, buyer.cartId);
      const resent = await orderWithKey(trx, buyer, input.checkoutKey);
      if (resent) return { ok: true, order: resent, reused: true, address: null };
      const checked = await cartProblem(trx, cartId, input.seen);
      if ("problem" in checked) return checked;
      // Unpaid orders cannot pile up: the cart lock also serialises this account's checkouts; a guest's
      // are counted by e-mail and by phone, each locked (guests with other carts may share them).
      const open = buyer.kind === "account" ? await openCheckoutOrders(trx, buyer.userId) : await openGuestOrders(trx, { email: buyer.email, phone: phone.phone });
      if (open.count >= MAX_OPEN_CHECKOUT_ORDERS) {
        return { ok: false, problem: "tooManyOpen", count: open.count, retryAfter: secondsUntilExpiry(open.oldest!, options.holdHours ?? 48) };
      }
      // Stock held by unpaid orders is bounded per order, per account and per address (docs/decisions/213).
      const limits = options.holds ?? DEFAULT_HOLDS;
      const overLimit = overProductLimit(checked.lines, limits);
      if (overLimit) return { ok: false, ...overLimit };
      const units = checked.lines.reduce((sum, l) => sum + l.quantity, 0);
      const held = await checkHolds(
        trx,
        buyer.kind === "account" ? { userId: buyer.userId, ip: options.clientIp ?? null } : { userId: null, email: buyer.email, phone: phone.phone, ip: options.clientIp ?? null },
        units,
        limits,
      );
      if (held) return { ok: false, ...held };

      let linkTo = addressId;
      if (linkTo === null && input.saveAddress && address && user) {
        try {
          linkTo = (await saveNewAddress(trx, user.id, { ...address, phone: phone.phone })).id;
        } catch (error) {
          // Four saved already (the box is not offered then): the order still goes through, unsaved.
          if (!(error instanceof AddressLimitError)) throw error;
        }
      }
      // The fee from the delivery table as it is now, inside the transaction that snapshots it.
      const table = await loadDeliveryTable(trx);
      const used: { quote: DeliveryQuote | null } = { quote: null };
      const placed = await insertOrder(trx, {
        channel: "checkout",
        userId: user?.id ?? null,
        ...(buyer.kind === "guest" ? { cartId: buyer.cartId, email: buyer.email, customerName: buyer.name, accessTokenHash: buyer.accessTokenHash, locale: buyer.locale ?? null } : {}),
        lines: checked.lines.map((l) => ({ productId: l.productId, sizeId: l.sizeId, quantity: l.quantity })),
        address,
        addressId: linkTo,
        takeFromStock: true,
        checkoutKey: input.checkoutKey,
        paymentMethod,
        delivery: (goods) => {
          const now = quoteFor(table, goods);
          if (!now.ok) throw new DeliveryChanged(quoted.quote, goods, goods + quoted.quote.fee);
          used.quote = now.quote;
          return now.quote;
        },
        // Queued below, once store credit and a gift card have paid their part: the alert shows it.
        ownerAlert: null,
        placedFrom: options.clientIp ?? null,
        phone: phone.phone,
        promotion: await cartCodeFor(trx, checked.cartId, customer),
      });
      // A saved address, or an account, without a number keeps the one given now (asked once, at its next use).
      if (user && addressId !== null && savedPhone === null) {
        await trx.updateTable("addresses").set({ phone: phone.phone }).where("id", "=", addressId).where("user_id", "=", user.id).where("phone", "is", null).execute();
      }
      if (user) await trx.updateTable("users").set({ phone: phone.phone }).where("id", "=", user.id).where("phone", "is", null).execute();
      // Rolls everything back when the total moved or the way to pay is no longer offered there.
      const delivery = used.quote ? { ...used.quote, fee: placed.shipping } : quoted.quote;
      if (placed.total !== expected || !paymentMethodsFor(input.payment, delivery, placed.total).includes(paymentMethod)) {
        throw new DeliveryChanged(delivery, placed.subtotal, placed.total);
      }
      // Store credit and a gift card pay what they can, last (docs/decisions/224); wholly paid, it is paid now.
      const spent = await spendOnOrder(trx, { order: placed, userId: user?.id ?? null, cartId: checked.cartId, at: placed.createdAt });
      if (spent.giftCard || spent.storeCredit) {
        Object.assign(placed, { storeCredit: spent.storeCredit, giftCard: spent.giftCard, giftCardCode: spent.giftCardCode, paymentStatus: spent.due === 0 ? "paid" : "unpaid" });
      }
      await trx.deleteFrom("cart_lines").where("cart_id", "=", checked.cartId).execute();
      // A reminded cart that came back as this order counts as recovered (docs/decisions/220).
      await markCartRecovered(trx, { cartId: checked.cartId, userId: user?.id ?? null, orderId: placed.id, total: placed.total, email: customer.email, phone: customer.phone });
      if (options.marketingOptIn && user) await grantConsent(trx, { userId: user.id, source: "checkout", ...options.marketingOptIn });
      // The confirmation and the owner's alert exist exactly when the order does: a crash after the commit cannot lose them.
      if (confirmation) await queueNewOrderAlert(trx, ownerAlert(confirmation.config), placed, address);
      if (confirmation) await queueConfirmation(trx, confirmation, placed, address, buyer);
      stockTaken = await stockTakenScope(trx, orderedProducts(placed));
      return { ok: true, order: placed, reused: false, address };
    });
    if (!outcome.ok || outcome.reused) return outcome;
    catalogChanged("here", stockTaken);
    return outcome;
  } catch (error) {
    // The fees or a price changed while the order was being written: nothing was; show the new total.
    if (error instanceof DeliveryChanged) return confirm(error.quote, error.subtotal, error.total);
    // The same form submitted twice at once: the unique key let one through; this one finds it.
    const raced = await orderWithKey(db, buyer, input.checkoutKey);
    if (raced) return { ok: true, order: raced, reused: true, address: null };
    if (error instanceof OrderError) return { ok: false, problem: "soldOut", productName: error.productName };
    throw error;
  }
}

/** The cart's code, to be judged again inside the order's transaction. */
async function cartCodeFor(trx: Db, cartId: string, customer: CodeCustomer): Promise<{ code: string; customer: CodeCustomer } | null> {
  const code = await cartCode(trx, cartId);
  return code ? { code, customer } : null;
}

async function queueConfirmation(trx: Transaction<Database>, mail: ConfirmationMail, order: PlacedOrder, address: AddressSnapshot | null, buyer: Buyer): Promise<void> {
  const guest = buyer.kind === "guest" ? buyer : null;
  const message = orderConfirmationEmail(mail.t, {
    firstName: guest ? guest.name : mail.user.firstName,
    order,
    address,
    bank: mail.config.shop.bank,
    vatIncluded: mail.config.shop.vatIncluded,
    // A guest's private link: the only way back to the order without an account.
    orderUrl: `${mail.config.publicUrl}${guest ? guest.link : `/orders/${order.number}`}`,
  });
  await queueMail(trx, { to: guest ? guest.email : mail.user.email, ...message, kind: "order-confirmation" });
  // And by WhatsApp and SMS, as the owner chose (docs/decisions/220).
  if (mail.config.messaging) await queueOrderMessage(trx, { messaging: mail.config.messaging, publicUrl: mail.config.publicUrl }, "order-placed", order.number);
}
