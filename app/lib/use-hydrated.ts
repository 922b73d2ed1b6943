import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** False during server rendering and hydration, true once React runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
