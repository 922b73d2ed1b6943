import { useMemo } from "react";
import { useFetchers, useNavigation } from "react-router";
import { applyCartActions, type PendingCartAction, readCartAction, summarise } from "~/lib/cart-optimistic";
import { usePersonal } from "~/lib/personal";

/** The cart actions submitted from this page whose answer has not arrived yet, oldest first. */
export function usePendingCartActions(): PendingCartAction[] {
  const fetchers = useFetchers();
  const navigation = useNavigation();
  return useMemo(() => {
    const actions: PendingCartAction[] = [];
    for (const f of fetchers) {
      const action = f.state === "idle" ? null : readCartAction(f.formData, f.formAction);
      if (action) actions.push(action);
    }
    const navigating = navigation.state === "submitting" ? readCartAction(navigation.formData, navigation.formAction) : null;
    if (navigating) actions.push(navigating);
    return actions;
  }, [fetchers, navigation]);
}

export interface LiveCartSummary {
  /** distinct lines, for the header badge */
  lines: number;
  /** kobo, of what can be bought now */
  total: number;
  /** true while a cart action is on its way */
  pending: boolean;
}

/**
 * The header's cart figures: the root loader's cart, adjusted for the cart actions in flight, so the
 * badge and the total change at the tap and settle on the server's answer.
 */
export function useCartSummary(): LiveCartSummary {
  const { cart } = usePersonal();
  const actions = usePendingCartActions();
  return useMemo(() => {
    if (actions.length === 0) return { lines: cart.lines, total: cart.total, pending: false };
    const { lines, adding } = applyCartActions(cart.items, actions);
    return { ...summarise(lines, adding), pending: true };
  }, [cart, actions]);
}
