import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

/**
 * The database as the code sees it. Money is integer kobo (₦1 = 100 kobo); times are ISO-8601 UTC
 * strings ("2026-01-31T09:00:00.000Z"), which sort correctly as text on both engines.
 */

type Id = Generated<number>;
type Timestamp = string;

export interface BrandTable {
  id: Id;
  name: string;
  slug: string;
  created_at: Timestamp;
}

export interface CategoryTable {
  id: Id;
  /** the English name, shown in every language that has none of its own */
  name: string;
  /** the Spanish name (docs/decisions/091) */
  name_es: string | null;
  slug: string;
  created_at: Timestamp;
}

export interface ProductTable {
  id: Id;
  slug: string;
  name: string;
  description: string;
  /** selling price in kobo */
  price: number;
  /** amount off in kobo; the original price is price + discount */
  discount: number | null;
  stock: number;
  /** storage key of the image; variants live at /images/{key}-{width}.webp */
  image: string | null;
  category_id: number;
  brand_id: number;
  /** set when a product that appears in orders is taken out of the shop */
  archived_at: Timestamp | null;
  /** parfum | edp | edt | edc (lib/perfume-facts.ts), null when not said */
  concentration: ColumnType<string | null, string | null | undefined, string | null>;
  /** the main scent family (lib/perfume-facts.ts), null when not said */
  family: ColumnType<string | null, string | null | undefined, string | null>;
  /** units on orders that are not cancelled, kept by triggers (migration 0041); the shop's "best selling" */
  sold: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  /** visible reviews, and the sum of their ratings (docs/decisions/134) */
  review_count: ColumnType<number, number | undefined, number>;
  rating_total: ColumnType<number, number | undefined, number>;
  /** the dearest size's price (kobo), kept by triggers on product_sizes (docs/decisions/121) */
  price_max: ColumnType<number, number | undefined, number>;
  /** when the automatic sale on the size a card shows (the cheapest) ends, in Lagos time as shown ("2026-12-06 23:59"); kept by the sales clock (docs/decisions/225) */
  sale_ends_at: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

/**
 * One size of a product (docs/decisions/121), with its own price, discount and stock. The product's
 * price, discount, price_max and stock are summaries of its sizes, kept by triggers (migration 0080).
 */
export interface ProductSizeTable {
  id: Id;
  product_id: number;
  /** e.g. "100 ml"; unique per product */
  label: string;
  ml: number | null;
  /** unique when set */
  sku: string | null;
  /** kobo */
  price: number;
  /** kobo off; the original price is price + discount */
  discount: number | null;
  stock: ColumnType<number, number | undefined, number>;
  position: ColumnType<number, number | undefined, number>;
  /** when the automatic sale holding this size ends, in Lagos time as shown ("2026-12-06 23:59"), while one does (docs/decisions/225) */
  sale_ends_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A shopper, or one of the staff roles (docs/decisions/218). */
export type Role = "customer" | StaffRole;
export type StaffRole = "owner" | "manager" | "fulfilment" | "support";

export interface UserTable {
  id: Id;
  /** trimmed and lower-cased, unique */
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  role: ColumnType<Role, Role | undefined, Role>;
  created_at: Timestamp;
  /** 1: the owner must choose a new password before using the admin area (the demo admin) */
  must_change_password: ColumnType<number, number | undefined, number>;
  /** the language the customer last used ("en", "es"); null until known */
  locale: ColumnType<string | null, string | null | undefined, string | null>;
  /** a Nigerian mobile number in E.164 (+234…); null until the customer gives one */
  phone: ColumnType<string | null, string | null | undefined, string | null>;
  /** when the account's personal data was erased at the shopper's request (docs/decisions/221); null for a live account */
  erased_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** staff suspended by the owner: no sign-in, no session (docs/decisions/222) */
  suspended_at: ColumnType<string | null, string | null | undefined, string | null>;
  last_sign_in_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** when the account last became staff: its second factor's grace counts from it; null: created_at */
  staff_since: ColumnType<string | null, string | null | undefined, string | null>;
  /** the TOTP secret (base32) once confirmed by a first code */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** a secret shown for setting up, not yet confirmed */
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** the last TOTP time step accepted: a code is never accepted twice */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SessionTable {
  /** SHA-256 of the random cookie value: a leaked table cannot be replayed */
  id: string;
  user_id: number;
  expires_at: Timestamp;
  created_at: Timestamp;
  /** when this session last proved the password (sign-in or confirmation), for sensitive actions */
  authenticated_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An invitation to join the staff (docs/decisions/222): single-use, expiring, only its token's hash kept. */
export interface StaffInvitationTable {
  id: Generated<number>;
  token_hash: string;
  email: string;
  role: StaffRole;
  invited_by: number | null;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface RecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the code as shown, without its dash */
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** A sign-in whose password was right, waiting for its second factor. */
export interface SignInChallengeTable {
  token_hash: string;
  user_id: number;
  redirect_to: ColumnType<string, string | undefined, string>;
  expires_at: string;
  created_at: string;
}

export interface StaffSettingsTable {
  id: number;
  second_factor_all_since: string | null;
}

export interface PasswordResetTable {
  token_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** A registration waiting for its address to be confirmed (docs/decisions/083). */
export interface PendingRegistrationTable {
  token_hash: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  redirect_to: ColumnType<string, string | undefined, string>;
  /** the marketing opt-in's words when it was ticked at registration (docs/decisions/220) */
  marketing_wording: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface AddressTable {
  id: Id;
  user_id: number;
  street: string;
  city: string;
  state: string;
  country: string;
  /** the number the rider calls at this address, E.164 (+234…); null for addresses saved before it was asked */
  phone: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface CartTable {
  /** random id (>= 128 bits) carried in the cart cookie */
  id: string;
  user_id: number | null;
  /** the discount code the shopper entered, as typed (docs/decisions/219) */
  promotion_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: spend the account's store credit on the order (docs/decisions/224) */
  use_credit: ColumnType<number, number | undefined, number>;
  /** the gift card code the shopper entered, as typed */
  gift_card_code: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CartLineTable {
  cart_id: string;
  product_id: number;
  /** the size in the cart; (cart_id, size_id) is the key */
  size_id: number;
  quantity: number;
  created_at: Timestamp;
}

export type OrderChannel = "checkout" | "whatsapp";
export type OrderStatus = "pending" | "confirmed" | "shipped" | "delivered" | "cancelled";

export interface OrderTable {
  id: Id;
  /** human-friendly, e.g. UB-10042 */
  number: string;
  user_id: number | null;
  channel: OrderChannel;
  status: OrderStatus;
  ship_street: string | null;
  ship_city: string | null;
  ship_state: string | null;
  ship_country: string | null;
  address_id: number | null;
  subtotal: number;
  shipping: number;
  total: number;
  /** the cart a WhatsApp order was made from (null for other orders) */
  cart_id: string | null;
  /** SHA-256 of the cart id and its lines when ordered: the same cart pressed again finds the same pending order */
  cart_fingerprint: string | null;
  /** the random key of the checkout form that placed it: a resent form finds this order */
  checkout_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** how the parcel travels, snapshotted when ordered (null: arranged in a WhatsApp chat) */
  delivery_method: ColumnType<DeliveryMethod | null, DeliveryMethod | null | undefined, DeliveryMethod | null>;
  /** the delivery zone's name, or for pick-up the shop's address */
  delivery_zone: ColumnType<string | null, string | null | undefined, string | null>;
  delivery_estimate: ColumnType<string | null, string | null | undefined, string | null>;
  /** how the shopper chose to pay (null: arranged in a WhatsApp chat) */
  payment_method: ColumnType<PaymentMethod | null, PaymentMethod | null | undefined, PaymentMethod | null>;
  payment_status: ColumnType<PaymentStatus, PaymentStatus | undefined, PaymentStatus>;
  paid_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  refunded_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** the Paystack transaction reference of the latest attempt */
  payment_reference: ColumnType<string | null, string | null | undefined, string | null>;
  /** how Paystack says it was paid: card, bank_transfer, ussd, ... */
  payment_channel: ColumnType<string | null, string | null | undefined, string | null>;
  /** Paystack's hosted checkout page for the latest transaction */
  payment_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** when the background check last asked Paystack about this unpaid order */
  payment_checked_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** the client address it was placed from: units held by one address's unpaid orders are capped (docs/decisions/213) */
  placed_from: ColumnType<string | null, string | null | undefined, string | null>;
  /** the number the rider calls, E.164 (+234…); null for orders placed before it was asked (and WhatsApp orders) */
  phone: ColumnType<string | null, string | null | undefined, string | null>;
  /** who placed a guest order (no account): the e-mail the confirmation and the private link went to */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** a guest order's name, as typed at checkout */
  customer_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 (hex) of the order's private link's token; null: no link, or revoked by the owner */
  access_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** the language its shopper used (en, es): a guest's e-mails and messages speak it; null before it was kept */
  locale: ColumnType<string | null, string | null | undefined, string | null>;
  /** when the owner was told this unconfirmed pay-on-delivery order will expire */
  hold_warned_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** kobo taken off the goods by a discount code; total = subtotal - discount + shipping */
  discount: ColumnType<number, number | undefined, number>;
  /** the code the discount came from, as the owner wrote it */
  promotion_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** kobo of the total paid by the account's store credit (docs/decisions/224) */
  store_credit: ColumnType<number, number | undefined, number>;
  /** kobo of the total paid by a gift card, and its code; what is due = total - store_credit - gift_card */
  gift_card: ColumnType<number, number | undefined, number>;
  gift_card_code: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type PromotionKind = "percent" | "fixed" | "free_delivery";

/** a discount code (docs/decisions/219) */
export interface PromotionTable {
  id: Id;
  code: string;
  /** the code in lower case: codes are matched without regard to case */
  code_key: string;
  kind: PromotionKind;
  /** whole per cent for 'percent', kobo for 'fixed', 0 for 'free_delivery' */
  value: number;
  min_subtotal: number | null;
  starts_at: Timestamp | null;
  ends_at: Timestamp | null;
  usage_limit: number | null;
  per_customer_limit: number | null;
  /** 1: also on sizes already on sale */
  combines_with_sale: number;
  /** orders holding a use now (never above usage_limit) */
  uses: ColumnType<number, number | undefined, number>;
  paused_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type PromotionTargetKind = "category" | "brand" | "product";

export interface PromotionTargetTable {
  promotion_id: number;
  kind: PromotionTargetKind;
  target_id: number;
}

export interface PromotionUseTable {
  id: Id;
  promotion_id: number;
  order_id: number;
  user_id: number | null;
  email: string | null;
  phone: string | null;
  discount: number;
  created_at: Timestamp;
  released_at: Timestamp | null;
}

export type SaleKind = "percent" | "fixed";

/** an automatic sale (docs/decisions/225): an offer without a code, put into the sizes' prices by the sales clock */
export interface SaleTable {
  id: Id;
  name: string;
  kind: SaleKind;
  /** whole per cent (1-99) for 'percent', kobo for 'fixed' */
  value: number;
  starts_at: Timestamp | null;
  ends_at: Timestamp;
  paused_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SaleTargetTable {
  sale_id: number;
  kind: PromotionTargetKind;
  target_id: number;
}

/** a size a sale holds (ended_at null) or held: its price pair before the sale and the pair the sale set */
export interface SaleSizeTable {
  id: Id;
  sale_id: number;
  size_id: number;
  product_id: number;
  price_before: number;
  discount_before: number | null;
  sale_price: number;
  sale_discount: number;
  applied_at: Timestamp;
  owner_priced_at: Timestamp | null;
  ended_at: Timestamp | null;
}

export interface SaleClockTable {
  id: number;
  ran_at: Timestamp | null;
}

/** a gift card (docs/decisions/224): its balance is the sum of its ledger rows */
export interface GiftCardTable {
  id: Id;
  code: string;
  code_key: string;
  initial_amount: number;
  expires_at: Timestamp | null;
  recipient_name: string;
  recipient_email: string;
  message: string | null;
  locale: ColumnType<string, string | undefined, string>;
  sold: ColumnType<number, number | undefined, number>;
  created_by: number | null;
  created_at: Timestamp;
}

export type CreditReason = "issued" | "refund" | "spent" | "returned" | "adjusted";

/** one movement of a customer's store credit or of a gift card's balance */
export interface CreditLedgerTable {
  id: Id;
  user_id: number | null;
  gift_card_id: number | null;
  amount: number;
  reason: CreditReason;
  order_id: number | null;
  actor_id: number | null;
  note: string | null;
  created_at: Timestamp;
}

export type DeliveryMethod = "delivery" | "pickup";
export type PaymentMethod = "paystack" | "bank_transfer" | "on_delivery";
export type PaymentStatus = "unpaid" | "paid" | "refunded";

export interface DeliveryZoneTable {
  id: Id;
  name: string;
  /** kobo */
  fee: number;
  /** e.g. "2-4 working days" */
  estimate: string;
  /** 1 when pay on delivery is offered in this zone */
  pay_on_delivery: number;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DeliveryStateTable {
  /** one of the 36 states or the Federal Capital Territory */
  state: string;
  zone_id: number;
}

export interface DeliverySettingsTable {
  /** always 1: one row */
  id: number;
  /** subtotal (kobo) from which delivery is free; null for never */
  free_from: number | null;
  pickup_enabled: number;
  pickup_address: string;
  pickup_estimate: string;
  updated_at: Timestamp;
}

export interface OrderItemTable {
  id: Id;
  order_id: number;
  product_id: number | null;
  /** the size sold; null once the size is gone */
  size_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** the size's label when ordered, shown beside the name ("Sauvage — 100 ml") */
  size_label: ColumnType<string | null, string | null | undefined, string | null>;
  name: string;
  unit_price: number;
  quantity: number;
}

/** a signed-in shopper's latest views, at most 12 per shopper (docs/decisions/126) */
export interface RecentlyViewedTable {
  user_id: number;
  product_id: number;
  /** the shopper's views counted up: the highest is the latest */
  seq: number;
  viewed_at: Timestamp;
}

export interface WishlistTable {
  user_id: number;
  product_id: number;
  created_at: Timestamp;
}

export interface OrderEventTable {
  id: Id;
  order_id: number;
  status: OrderStatus;
  /** the admin who made the change; null for the shopper or the system */
  actor_user_id: number | null;
  note: string | null;
  created_at: Timestamp;
}

export type AuditAction = "create" | "update" | "delete" | "archive" | "restore" | "erase";
export type AuditEntity = "product" | "category" | "brand" | "order" | "delivery" | "user" | "review" | "promotion" | "gift_card" | "sale";

export interface AuditLogTable {
  id: Id;
  actor_user_id: number | null;
  action: AuditAction;
  entity: AuditEntity;
  entity_id: number | null;
  summary: string;
  /** JSON: { field: [old, new] } for the fields that changed */
  changes: string | null;
  created_at: Timestamp;
}

/** abuse-limit counters on PostgreSQL (rate-limiter-flexible's store); unused on SQLite */
export interface RateLimitTable {
  /** limiter name and a hashed subject, e.g. "signin-account:9f86d0…" */
  key: string;
  points: number;
  /** end of the window, epoch milliseconds */
  expire: number | null;
}

export type MailStatus = "pending" | "sent" | "failed";

/** e-mails waiting to be sent, written in the transaction of what they report (docs/decisions/060) */
export interface ReviewTable {
  id: Generated<number>;
  product_id: number;
  user_id: number;
  /** 1 to 5 */
  rating: number;
  body: string;
  author: string;
  created_at: Timestamp;
  hidden_at: Timestamp | null;
  hidden_by: number | null;
}

export interface BackInStockRequestTable {
  id: Generated<number>;
  product_id: number;
  /** the size waited for (migration 0081); null only if never set */
  size_id: ColumnType<number | null, number | null | undefined, number | null>;
  email: string;
  user_id: number | null;
  /** the language the alert is written in */
  locale: string;
  /** for the unsubscribe link */
  token: string;
  created_at: Timestamp;
  /** when the alert was queued: the request is used up */
  notified_at: Timestamp | null;
}

export interface MailOutboxTable {
  id: Id;
  /** what the message is about, e.g. order-confirmation, order-status, password-reset */
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: ColumnType<MailStatus, MailStatus | undefined, MailStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

/** One row (id 1): a number raised by triggers whenever a shop listing could change (migration 0040). */
export interface CatalogVersionTable {
  id: number;
  version: number;
}

/** SQLite only: the FTS5 search index over product and brand names, kept by triggers (migration 0040). */
export interface ProductSearchTable {
  rowid: number;
  name: string;
  brand: string;
}

/** a catalogue CSV checked and shown to the owner, waiting for the confirmation that applies it */
export interface CatalogueImportTable {
  /** random, unguessable */
  id: string;
  user_id: number;
  file_name: string;
  /** the file's text (UTF-8, without a BOM) */
  content: string;
  /** 1 when unknown brands and categories may be created */
  create_missing: number;
  created_at: Timestamp;
}

export type StockReason = "received" | "damaged" | "correction";

/** one adjustment of a product's stock by the owner (docs/decisions/118) */
/** A product's photos in order (docs/decisions/124); products.image is the first one's key. */
export interface ProductPhotoTable {
  id: Id;
  product_id: number;
  /** storage key; variants live at /images/{key}-{width}.webp */
  image: string;
  /** null: the product's name is the alt text */
  alt: string | null;
  /** 1 is the first photo (the card image) */
  position: number;
  created_at: Timestamp;
}

export interface StockAdjustmentTable {
  id: Id;
  product_id: number;
  /** the size adjusted (docs/decisions/121); null once the size is gone */
  size_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** its label, when the product had several sizes */
  size_label: ColumnType<string | null, string | null | undefined, string | null>;
  /** null once the admin's account is gone */
  actor_user_id: number | null;
  reason: StockReason;
  note: string | null;
  /** signed: +12 received, -1 damaged */
  change: number;
  stock_before: number;
  stock_after: number;
  created_at: Timestamp;
}

/** A guest's confirmed request to see or erase what the shop holds under an e-mail (docs/decisions/221). */
export interface PrivacyRequestTable {
  /** SHA-256 of the token in the e-mailed link */
  token_hash: string;
  /** trimmed and lower-cased */
  email: string;
  locale: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** set when the data was erased with it: a link erases once */
  used_at: Timestamp | null;
}

export type MessageChannel = "whatsapp" | "sms";
export type MessageStatus = "pending" | "sent" | "delivered" | "read" | "failed";

/** A WhatsApp or SMS message waiting, sent or given up on (docs/decisions/220). */
export interface MessageOutboxTable {
  id: Id;
  channel: MessageChannel;
  kind: string;
  idempotency_key: string;
  /** the recipient's number, E.164 */
  to_phone: string;
  locale: string;
  template: string | null;
  /** JSON array of strings */
  template_params: string;
  text_body: string;
  order_id: number | null;
  user_id: number | null;
  status: ColumnType<MessageStatus, MessageStatus | undefined, MessageStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  last_error: string | null;
  error_code: string | null;
  provider_message_id: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
  delivered_at: Timestamp | null;
}

export interface MessageSettingTable {
  kind: string;
  whatsapp: number;
  sms: number;
  updated_at: Timestamp;
}

export interface CartReminderSettingTable {
  id: number;
  delay_minutes: number;
  /** the discount code reminders carry, chosen by the owner (docs/decisions/220); null: none */
  promotion_code: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

export interface MarketingConsentTable {
  id: Id;
  user_id: number | null;
  contact_email: string | null;
  contact_phone: string | null;
  source: "registration" | "checkout" | "profile";
  wording: string;
  locale: string;
  token: string;
  granted_at: Timestamp;
  withdrawn_at: Timestamp | null;
  withdrawn_via: string | null;
  /** a guest's opt-in at checkout: the visitor's cart it was given on (docs/decisions/220) */
  cart_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** a guest's name, to greet them by (personal) */
  contact_name: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CartReminderTable {
  cart_id: string;
  user_id: number | null;
  contact_email: string | null;
  contact_phone: string | null;
  channel: "whatsapp" | "sms" | "email";
  restore_token: string;
  consent_id: number | null;
  sent_at: Timestamp;
  restored_at: Timestamp | null;
  order_id: number | null;
  order_total: number | null;
  recovered_at: Timestamp | null;
  /** the owner's discount code the reminder announced; its link puts it on the restored cart */
  promotion_code: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface Database {
  brands: BrandTable;
  categories: CategoryTable;
  products: ProductTable;
  product_sizes: ProductSizeTable;
  users: UserTable;
  sessions: SessionTable;
  password_resets: PasswordResetTable;
  pending_registrations: PendingRegistrationTable;
  addresses: AddressTable;
  carts: CartTable;
  cart_lines: CartLineTable;
  orders: OrderTable;
  order_items: OrderItemTable;
  wishlist: WishlistTable;
  recently_viewed: RecentlyViewedTable;
  order_events: OrderEventTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitTable;
  mail_outbox: MailOutboxTable;
  back_in_stock_requests: BackInStockRequestTable;
  reviews: ReviewTable;
  catalog_version: CatalogVersionTable;
  product_search: ProductSearchTable;
  delivery_zones: DeliveryZoneTable;
  delivery_states: DeliveryStateTable;
  delivery_settings: DeliverySettingsTable;
  catalogue_imports: CatalogueImportTable;
  stock_adjustments: StockAdjustmentTable;
  product_photos: ProductPhotoTable;
  privacy_requests: PrivacyRequestTable;
  staff_invitations: StaffInvitationTable;
  recovery_codes: RecoveryCodeTable;
  sign_in_challenges: SignInChallengeTable;
  staff_settings: StaffSettingsTable;
  message_outbox: MessageOutboxTable;
  message_settings: MessageSettingTable;
  cart_reminder_settings: CartReminderSettingTable;
  marketing_consents: MarketingConsentTable;
  cart_reminders: CartReminderTable;
  promotions: PromotionTable;
  promotion_targets: PromotionTargetTable;
  promotion_uses: PromotionUseTable;
  sales: SaleTable;
  sale_targets: SaleTargetTable;
  sale_sizes: SaleSizeTable;
  sale_clock: SaleClockTable;
  gift_cards: GiftCardTable;
  credit_ledger: CreditLedgerTable;
}

export type Product = Selectable<ProductTable>;
export type NewProduct = Insertable<ProductTable>;
export type User = Selectable<UserTable>;
