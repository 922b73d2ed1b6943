/** Sizes form facts shared by the server (app/domain/catalogue/admin-sizes.server.ts) and the page (docs/decisions/121). */

export const MAX_SIZES = 8;
export const MAX_SIZE_LABEL = 40;
export const MAX_SKU = 40;
export const MAX_ML = 5_000;

export type SizeField = "label" | "ml" | "sku" | "price" | "discount" | "remove";
export type SizeRowErrors = Partial<Record<SizeField, string>>;

/** A row of the sizes form as typed, to fill the form again. */
export interface SizeRowValues {
  id: string;
  label: string;
  ml: string;
  sku: string;
  price: string;
  discount: string;
  remove: boolean;
}
