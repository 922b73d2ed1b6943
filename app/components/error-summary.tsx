import { useEffect, useId, useRef } from "react";

export interface SummaryError {
  /** the id of the field the error is about; none for a problem with the whole form */
  field?: string;
  text: string;
}

/**
 * What went wrong with a form, at the top of the page, so a shopper on a phone sees it without
 * scrolling: a box that takes the focus (screen readers read it out) and links to each field that
 * needs fixing. Without JavaScript the page comes back from the server with the box `autofocus`ed;
 * with it, the box is focused every time a new answer (`answer`) arrives.
 */
export function ErrorSummary({ title, errors, answer }: { title: string; errors: SummaryError[]; answer: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  const heading = useId();
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    box.focus({ preventScroll: true });
    box.scrollIntoView({ block: "start" });
  }, [answer]);
  if (errors.length === 0) return null;
  return (
    <div
      ref={ref}
      role="alert"
      aria-labelledby={heading}
      tabIndex={-1}
      autoFocus
      className="mt-4 scroll-mt-4 rounded-lg border-2 border-rose-700 bg-rose-50 px-4 py-3 text-sm text-rose-900 outline-none focus:ring-4 focus:ring-rose-300"
    >
      <h2 id={heading} className="font-semibold">
        {title}
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {errors.map((error, i) => (
          <li key={error.field ?? i}>
            {error.field ? (
              <a
                href={`#${error.field}`}
                className="underline"
                onClick={(event) => {
                  const field = document.getElementById(error.field!);
                  if (!field) return;
                  event.preventDefault();
                  field.focus();
                  field.scrollIntoView({ block: "center" });
                }}
              >
                {error.text}
              </a>
            ) : (
              error.text
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
