import type { MouseEvent, ReactNode } from "react";
import { useT } from "~/lib/i18n";
import { Icon } from "./icon";

/**
 * A panel that slides in from the left: a native modal <dialog> (focus kept inside, Escape and a tap
 * outside close it). Its button opens it through an invoker command, so it works without JavaScript
 * in current browsers; with JavaScript, older browsers are covered by showModal().
 */
export function Drawer({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const { t } = useT();
  // A tap on the backdrop, or on a link inside (a page change), closes the drawer.
  const closeOnLinkOrBackdrop = (e: MouseEvent<HTMLDialogElement>) => {
    const target = e.target as Element;
    if (target === e.currentTarget || target.closest("a")) e.currentTarget.close();
  };
  return (
    <dialog id={id} aria-labelledby={`${id}-title`} closedby="any" className="drawer" onClick={closeOnLinkOrBackdrop}>
      <div className="flex min-h-full flex-col gap-4 p-4">
        <div className="flex items-center justify-between">
          <h2 id={`${id}-title`} className="font-serif text-xl font-semibold">
            {title}
          </h2>
          <button type="button" commandfor={id} command="close" onClick={(e) => closeDialog(e, id)} className="icon-btn" aria-label={t("store.drawer.close")}>
            <Icon name="close" />
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}

function closeDialog(e: MouseEvent, id: string) {
  e.preventDefault();
  (document.getElementById(id) as HTMLDialogElement | null)?.close();
}

export function DrawerButton({ target, className, children }: { target: string; className?: string; children: ReactNode }) {
  return (
    <button
      type="button"
      commandfor={target}
      command="show-modal"
      aria-haspopup="dialog"
      className={className}
      onClick={(e) => {
        e.preventDefault();
        (document.getElementById(target) as HTMLDialogElement | null)?.showModal();
      }}
    >
      {children}
    </button>
  );
}
