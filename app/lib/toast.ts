export type ToastType = "success" | "info" | "error";

/** A toast names its text by translation key, so it shows in the shopper's language. */
export interface ToastInput {
  type: ToastType;
  key: string;
  values?: Record<string, string | number>;
}

export interface Toast extends ToastInput {
  id: string;
}

/** A toast as the page receives it: already in the shopper's language. */
export interface ShownToast {
  id: string;
  type: ToastType;
  text: string;
}
