import { useEffect, useState } from "react";
import type { ShownToast } from "~/lib/toast";
import { useHydrated } from "~/lib/use-hydrated";

import type * as SonnerModule from "sonner";

import sonnerStyles from "sonner/dist/styles.css?url";

type Sonner = typeof SonnerModule;
let sonnerModule: Promise<Sonner> | null = null;

function loadStylesheet(href: string): Promise<void> {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

// The toast library and its styles are fetched the first time a toast is due, not with every page.
const loadSonner = () => (sonnerModule ??= Promise.all([import("sonner"), loadStylesheet(sonnerStyles)]).then(([sonner]) => sonner));

/**
 * Top-right toasts that close after 5 s, pause on hover and can be dismissed or swiped away.
 * Without JavaScript the flash message is rendered by the server as a plain notice instead.
 */
export function Toasts({ toast }: { toast: ShownToast | null }) {
  const hydrated = useHydrated();
  const [sonner, setSonner] = useState<Sonner | null>(null);

  useEffect(() => {
    if (toast && !sonner) void loadSonner().then(setSonner);
  }, [toast, sonner]);

  const id = toast?.id;
  useEffect(() => {
    if (!toast || !sonner) return;
    sonner.toast[toast.type](toast.text, { id: toast.id });
    // Each toast is shown once, however often the page re-renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, sonner]);

  return (
    <>
      {!hydrated && toast && (
        <div
          role="status"
          data-toast-fallback
          className="fixed right-4 top-28 z-50 max-w-sm rounded-lg border border-stone-200 bg-white px-4 py-3 text-sm shadow-lg"
        >
          {toast.text}
        </div>
      )}
      {/* Top right, below the header's own links (sign in, cart), so a toast never covers them. */}
      {sonner && (
        <sonner.Toaster
          position="top-right"
          duration={5000}
          closeButton
          richColors
          offset={{ top: "7.5rem", right: "1rem" }}
          mobileOffset={{ top: "7rem", right: "0.5rem", left: "0.5rem" }}
        />
      )}
    </>
  );
}
