/**
 * The cart as it will be once the cart actions in flight are done: the page applies them to what the
 * server last said, so the badge, the total and the lines move at the tap, not a round trip later.
 * The same rules as the server (app/domain/shopper/cart.server.ts), in short; the server's answer always wins.
 */

export type PendingCartAction =
  | { intent: "add" | "remove" | "increment" | "decrement"; productId: number; sizeId?: number }
  | { intent: "set"; productId: number; sizeId?: number; quantity: number }
  | { intent: "clear" };

export interface OptimisticLine {
  productId: number;
  /** the line's size (docs/decisions/121); absent in old data: the product's only line */
  sizeId?: number;
  /** what can be bought: already capped by the stock */
  quantity: number;
  /** kobo */
  unitPrice: number;
  stock: number;
  buyable: boolean;
}

export const CART_ACTION_PATH = "/cart";

/** A cart action from a submission's form data, or null when it is not one (or is malformed). */
export function readCartAction(formData: FormData | undefined, formAction: string | undefined): PendingCartAction | null {
  if (!formData || !formAction) return null;
  if (new URL(formAction, "http://localhost").pathname !== CART_ACTION_PATH) return null;
  const intent = formData.get("intent");
  const productId = Number(formData.get("productId"));
  if (intent === "clear") return { intent };
  if (!Number.isInteger(productId) || productId < 1) return null;
  // The line's size, when the form names one (the server checks it; here it only finds the line).
  const sizeId = Number(formData.get("sizeId")) || undefined;
  if (intent === "add" || intent === "remove" || intent === "increment" || intent === "decrement") return { intent, productId, sizeId };
  if (intent === "set") {
    const quantity = Number(String(formData.get("quantity") ?? "").trim());
    return Number.isInteger(quantity) && quantity >= 1 ? { intent, productId, sizeId, quantity } : null;
  }
  return null;
}

/**
 * Applies the actions in order. Returns the lines as they will be, and the products being added that
 * are not in the cart yet (their price is not known here: they count in the badge, not the total).
 */
export function applyCartActions<L extends OptimisticLine>(lines: L[], actions: PendingCartAction[]): { lines: L[]; adding: number[] } {
  let next = [...lines];
  const adding = new Set<number>();
  for (const action of actions) {
    if (action.intent === "clear") {
      next = [];
      adding.clear();
      continue;
    }
    const i = next.findIndex((l) => l.productId === action.productId && (!action.sizeId || !l.sizeId || l.sizeId === action.sizeId));
    const line = i === -1 ? null : next[i];
    switch (action.intent) {
      case "add":
        if (!line) adding.add(action.productId);
        break;
      case "remove":
        if (line) next.splice(i, 1);
        adding.delete(action.productId);
        break;
      case "increment":
        if (line && line.buyable && line.quantity < line.stock) next[i] = { ...line, quantity: line.quantity + 1 };
        break;
      case "decrement":
        if (line && line.buyable && line.quantity > 1) next[i] = { ...line, quantity: line.quantity - 1 };
        else if (line) next.splice(i, 1);
        break;
      case "set":
        if (line && line.buyable && action.quantity <= line.stock) next[i] = { ...line, quantity: action.quantity };
        break;
    }
  }
  return { lines: next, adding: [...adding] };
}

/** The header's figures: distinct lines, and the total of what can be bought. */
export function summarise(lines: OptimisticLine[], adding: number[] = []): { lines: number; total: number } {
  return {
    lines: lines.length + adding.length,
    total: lines.reduce((sum, l) => (l.buyable ? sum + l.unitPrice * l.quantity : sum), 0),
  };
}
