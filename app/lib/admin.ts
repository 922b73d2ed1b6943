import type { AuditEntity, OrderChannel, OrderStatus, PaymentStatus, StockReason } from "~/db/schema";

/** Constants the admin screens share between the server's rules and the browser's forms. */

export const ORDER_STATUSES: OrderStatus[] = ["pending", "confirmed", "shipped", "delivered", "cancelled"];
export const ORDER_CHANNELS: OrderChannel[] = ["checkout", "whatsapp"];
export const PAYMENT_STATUSES: PaymentStatus[] = ["unpaid", "paid", "refunded"];
export const MAX_STATUS_NOTE = 500;
/** Why the owner changes a product's stock (docs/decisions/118). */
export const STOCK_REASONS: StockReason[] = ["received", "damaged", "correction"];
export const MAX_STOCK_NOTE = 300;

/**
 * Whether an order in this status holds its items' stock: a checkout order from the moment it is
 * placed, a WhatsApp order once the owner confirms it (nothing is paid before); a cancelled one never.
 */
export function holdsStock(channel: OrderChannel, status: OrderStatus): boolean {
  if (status === "cancelled") return false;
  return channel === "checkout" || status !== "pending";
}

export const AUDIT_ENTITIES: AuditEntity[] = ["product", "category", "brand", "order", "delivery", "user", "review", "promotion", "sale", "gift_card"];

/** The product form's fields, in the order the form shows them (the image comes last). */
export const PRODUCT_FIELDS = ["brandId", "categoryId", "name", "price", "discount", "stock", "concentration", "family", "description"] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];
/** Translation keys of the problems with each field. */
export type ProductErrors = Partial<Record<ProductField | "image", string>>;

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** A product's photo gallery (docs/decisions/124): at most this many photos, each alt text at most this long. */
export const MAX_PHOTOS = 8;
export const MAX_PHOTO_ALT = 150;
/** the largest catalogue CSV file an import reads */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** The largest zip of product photos the photo import takes (docs/decisions/120). */
export const MAX_PHOTO_ZIP_BYTES = 50 * 1024 * 1024;

/** The columns of a catalogue CSV file, in the order the export writes them (an import takes any order). */
export const CATALOGUE_COLUMNS = ["name", "slug", "brand", "category", "price", "discount", "stock", "description", "status"] as const;
export type CatalogueColumn = (typeof CATALOGUE_COLUMNS)[number];
