import { createContext, type ReactElement, useContext } from "react";
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_LocationContext as LocationContext,
  UNSAFE_NavigationContext as NavigationContext,
} from "react-router";
import { escapeHtml } from "./html";

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
 *
 * `values` are the page's own texts in a part otherwise the same on many pages (the page's address in
 * its language links), left out of `key`: `part` is given marks to write in their places, and each
 * page's are written there escaped as React escapes text and attribute values. A part whose kept HTML
 * lacks a mark (a value it does not write as it is) is rendered in place.
 */
export function useKeptHtml(key: string | null, opening: string, part: (values: readonly string[]) => ReactElement, values: readonly string[] = []): string | null {
  const fragments = useContext(FragmentsContext);
  const router = useContext(DataRouterContext);
  const routerState = useContext(DataRouterStateContext);
  const navigation = useContext(NavigationContext);
  const location = useContext(LocationContext);
  if (!fragments || key === null) return null;
  const html = fragments.innerHtml(key, opening, () => (
    <DataRouterContext.Provider value={router}>
      <DataRouterStateContext.Provider value={routerState}>
        <NavigationContext.Provider value={navigation}>
          <LocationContext.Provider value={location}>{part(values.map(valueMark))}</LocationContext.Provider>
        </NavigationContext.Provider>
      </DataRouterStateContext.Provider>
    </DataRouterContext.Provider>
  ));
  return html === null || values.length === 0 ? html : withValues(html, values);
}

/** A value's place in a kept part: characters from Unicode's private use area, which no address holds as they are. */
function valueMark(_value: string, index: number): string {
  return `\uE000${index}\uE000`;
}

const VALUE_MARK = /\uE000(\d+)\uE000/;

/** Kept HTML with each value written, escaped, where `part` wrote its mark; null when a mark is missing. */
export function withValues(html: string, values: readonly string[]): string | null {
  // Split, marks at the odd places: a value that looked like a mark is never read as one.
  const pieces = html.split(VALUE_MARK);
  const written = new Set<number>();
  let filled = pieces[0];
  for (let i = 1; i < pieces.length; i += 2) {
    const index = Number(pieces[i]);
    if (!(index < values.length)) return null;
    written.add(index);
    filled += escapeHtml(values[index]) + pieces[i + 1];
  }
  return written.size === values.length ? filled : null;
}
