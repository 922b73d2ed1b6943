import { createContext, type ReactElement, useContext } from "react";
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_LocationContext as LocationContext,
  UNSAFE_NavigationContext as NavigationContext,
} from "react-router";

/**
 * Parts of a page rendered once and then reused as HTML (docs/decisions/168): on the server only, where
 * entry.server.tsx provides it; in the browser there is none and every part renders as usual.
 */
export interface Fragments {
  /**
   * The HTML inside the outer element `part` renders, exactly as React writes it in place, kept under
   * `key`; null when it cannot be reused (the part's outer element is not `opening`, or React wrote
   * something around it).
   */
  innerHtml(key: string, opening: string, part: () => ReactElement): string | null;
}

export const FragmentsContext = /* @__PURE__ */ createContext<Fragments | null>(null);

/**
 * On the server, the HTML inside `part`'s outer element, kept from an earlier render under `key`, which
 * must name everything the part shows; null: render the part in place. `part` is rendered on its own,
 * with this page's router contexts (its location among them) and language and without fragments (so
 * there it renders itself in place). Call it last among a component's hooks, and only on the server
 * (behind `import.meta.env.SSR`, so the browser's scripts do not have it): the render on its own leaves
 * React ready for the next component, not for more hooks of this one. A part must not use `useId`: ids
 * depend on where in the page a part is rendered.
 */
export function useKeptHtml(key: string | null, opening: string, part: () => ReactElement): string | null {
  const fragments = useContext(FragmentsContext);
  const router = useContext(DataRouterContext);
  const routerState = useContext(DataRouterStateContext);
  const navigation = useContext(NavigationContext);
  const location = useContext(LocationContext);
  if (!fragments || key === null) return null;
  return fragments.innerHtml(key, opening, () => (
    <DataRouterContext.Provider value={router}>
      <DataRouterStateContext.Provider value={routerState}>
        <NavigationContext.Provider value={navigation}>
          <LocationContext.Provider value={location}>{part()}</LocationContext.Provider>
        </NavigationContext.Provider>
      </DataRouterStateContext.Provider>
    </DataRouterContext.Provider>
  ));
}
