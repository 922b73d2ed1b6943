import type { AppLoadContext } from "react-router";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import type { Locale, Translate } from "~/lib/i18n";
import { hashPassword } from "~/platform/password.server";
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, normaliseEmail } from "../accounts/accounts.server";
import { type CheckoutFieldErrors, type CheckoutInput, type CheckoutResult, placeOrder } from "./checkout.server";
import { consumeAttempt } from "../operations/rate-limits.server";
import { keepGuestConsent } from "../messages/consent.server";
import { parseNigerianMobile } from "~/lib/phone";
import { findOrderByLink, orderLinkPath, orderLinkToken, tokenHash } from "./order-tracking.server";

/**
 * Guest checkout (docs/decisions/217): an order without an account, placed by placeOrder with the
 * same rules, transaction, idempotency and stock-hold caps as a signed-in one. What is a guest's own:
 *
 * - a name and an e-mail, both required (the confirmation and the order's private link go to the
 *   e-mail; Paystack needs one; the per-e-mail caps need one). The phone is required as for everyone;
 * - the owner's settings: GUEST_CHECKOUT (offered at all) and GUEST_PAY_ON_DELIVERY_MAX (pay on
 *   delivery only up to that total, the known fraud risk of guest orders);
 * - new guest orders per IP address per hour (guestOrderIp); open unpaid orders and units held per
 *   e-mail and per phone (checked in the order's transaction);
 * - an account afterwards, in one step, from the order's private link (createAccountFromLink).
 */

type Context = Pick<AppLoadContext, "db" | "engine" | "config" | "clientIp">;

const contactSchema = z.object({
  name: z.string().trim().min(1, "purchase.guest.errors.nameRequired").max(MAX_NAME_LENGTH, "purchase.guest.errors.nameTooLong"),
  email: z
    .string()
    .trim()
    .min(1, "purchase.guest.errors.emailRequired")
    .max(MAX_EMAIL_LENGTH, "purchase.guest.errors.email")
    .pipe(z.email("purchase.guest.errors.email")),
});

export interface GuestCheckoutInput extends CheckoutInput {
  name: string;
  email: string;
}

export type GuestCheckoutResult = CheckoutResult & { link?: string };

/** Whether guests may check out at all (GUEST_CHECKOUT). */
export function guestCheckoutOffered(config: Context["config"]): boolean {
  return config.guests.checkout;
}

/** The ways to pay a guest is offered: the shop's, with pay on delivery capped by GUEST_PAY_ON_DELIVERY_MAX. */
export function guestPaymentOptions(config: Context["config"], payment: CheckoutInput["payment"]): CheckoutInput["payment"] {
  return { ...payment, onDeliveryMax: config.guests.payOnDeliveryMax };
}

export async function placeGuestOrder(
  context: Context,
  cartId: string | null,
  input: GuestCheckoutInput,
  options: {
    t: Translate;
    locale?: Locale;
    /** the marketing box as posted, with its words (docs/decisions/220): kept on the cart even if no order is placed */
    marketing?: { on: boolean; wording: string } | null;
  },
): Promise<GuestCheckoutResult> {
  if (cartId && options.marketing) {
    // What the guest gave so far, each part checked on its own: a reminder needs a name and a way to reach them.
    const given = {
      name: contactSchema.shape.name.safeParse(input.name),
      email: contactSchema.shape.email.safeParse(input.email),
      phone: parseNigerianMobile(input.phone),
    };
    await keepGuestConsent(context.db, {
      cartId,
      on: options.marketing.on,
      name: given.name.success ? given.name.data : "",
      email: given.email.success ? normaliseEmail(given.email.data) : null,
      phone: given.phone.ok ? given.phone.phone : null,
      locale: options.locale ?? null,
      wording: options.marketing.wording,
    });
  }
  const contact = contactSchema.safeParse({ name: input.name, email: input.email });
  const contactErrors: CheckoutFieldErrors = {};
  if (!contact.success) for (const issue of contact.error.issues) contactErrors[issue.path[0] as "name" | "email"] ??= issue.message;
  const name = contact.success ? contact.data.name : "";
  const email = contact.success ? normaliseEmail(contact.data.email) : "";
  const token = orderLinkToken(context.config.sessionSecret, input.checkoutKey);
  const link = orderLinkPath(token);
  const result = await placeOrder(
    context.db,
    { kind: "guest", cartId, name, email, accessTokenHash: tokenHash(token), link, locale: options.locale ?? null },
    { ...input, saveAddress: false, addressId: null, payment: guestPaymentOptions(context.config, input.payment) },
    {
      mail: { t: options.t, config: context.config, user: { email, firstName: name } },
      holdHours: context.config.orderHoldHours,
      holds: context.config.holds,
      clientIp: context.clientIp,
      contactErrors,
      countNewOrder: () => consumeAttempt(context, "guestOrderIp", context.clientIp),
    },
  );
  return result.ok ? { ...result, link } : result;
}

export type AccountFromLinkResult =
  | { ok: true; userId: number }
  | { ok: false; problem: "notFound" | "noEmail" | "emailTaken" }
  | { ok: false; problem: "password"; error: string };

/**
 * "Create an account" from a guest order's private link: the order's e-mail becomes the account's (it is
 * confirmed: the link was only ever sent to it), the shopper chooses a password, and every guest order
 * placed with that e-mail joins the account, in one transaction. An e-mail that has an account already
 * is refused (sign in instead): the link proves the e-mail, not who holds that account.
 */
export async function createAccountFromLink(
  context: Context,
  token: string,
  password: string,
): Promise<AccountFromLinkResult> {
  const order = await findOrderByLink(context.db, token);
  if (!order) return { ok: false, problem: "notFound" };
  if (!order.email || order.userId !== null) return { ok: false, problem: "noEmail" };
  if (password.length < MIN_PASSWORD_LENGTH) return { ok: false, problem: "password", error: "purchase.guest.errors.passwordShort" };
  if (password.length > MAX_PASSWORD_LENGTH) return { ok: false, problem: "password", error: "purchase.guest.errors.passwordLong" };
  const email = order.email;
  const passwordHash = await hashPassword(password);
  const [first, ...rest] = (order.customerName ?? "").split(/\s+/).filter(Boolean);
  const userId = await joinGuestOrders(context.db, { email, passwordHash, firstName: first ?? "", lastName: rest.join(" "), phone: order.phone });
  if (userId === null) return { ok: false, problem: "emailTaken" };
  return { ok: true, userId };
}

/** Creates the account and gives it the guest orders of its e-mail; null when the e-mail has an account. */
async function joinGuestOrders(
  db: Db,
  input: { email: string; passwordHash: string; firstName: string; lastName: string; phone: string | null },
): Promise<number | null> {
  try {
    return await db.transaction().execute(async (trx) => {
      const taken = await trx.selectFrom("users").select("id").where("email", "=", input.email).executeTakeFirst();
      if (taken) return null;
      const at = new Date().toISOString();
      const user = await trx
        .insertInto("users")
        .values({
          email: input.email,
          password_hash: input.passwordHash,
          first_name: input.firstName.slice(0, MAX_NAME_LENGTH),
          last_name: input.lastName.slice(0, MAX_NAME_LENGTH),
          role: "customer",
          phone: input.phone,
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx.updateTable("orders").set({ user_id: user.id, updated_at: at }).where("user_id", "is", null).where("email", "=", input.email).where("channel", "=", "checkout").execute();
      return user.id;
    });
  } catch (error) {
    // Two creations at once: the unique e-mail lets one through.
    const taken = await db.selectFrom("users").select("id").where("email", "=", input.email).executeTakeFirst();
    if (taken) return null;
    throw error;
  }
}
