import { ArrowLeft, Pencil, Search, Trash2, X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { type FetcherWithComponents, Form, Link, useNavigate, useSubmit } from "react-router";
import { OrderStatusBadge } from "~/components/order-status";
import type { OrderStatus } from "~/db/schema";
import { useT } from "~/lib/i18n";

/** Pieces shared by the admin screens: headings, fields, search, pagination, dialogs. */

export const buttonClass =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60";
export const primaryButton = `${buttonClass} bg-ink text-white hover:bg-stone-700`;
export const secondaryButton = `${buttonClass} border border-stone-300 bg-white text-ink hover:bg-stone-100`;
export const dangerButton = `${buttonClass} bg-red-700 text-white hover:bg-red-800`;
export const iconButton =
  "inline-flex h-11 w-11 items-center justify-center rounded-lg text-stone-700 hover:bg-stone-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600";
export const inputClass =
  "block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-ink shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-brand-600 aria-[invalid=true]:border-red-600";

export const fileInputClass =
  "block w-full text-sm file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-stone-200 file:px-4 file:text-sm file:font-medium";
/** The image types a product photo may be (the server checks the bytes). */
export const IMAGE_TYPES = "image/jpeg,image/png,image/webp,image/avif";

export function PageHeader({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="font-serif text-2xl font-semibold text-ink sm:text-3xl">{title}</h1>
      {children && <div className="flex flex-wrap items-center gap-2">{children}</div>}
    </div>
  );
}

/** The way back to the list a detail screen was opened from, above its heading. */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="mb-2 inline-flex min-h-11 items-center gap-2 text-sm text-stone-600 hover:text-ink">
      <ArrowLeft aria-hidden="true" size={16} />
      {children}
    </Link>
  );
}

/** A white card of a detail screen, named by its heading (`id`-heading). */
export function Panel({ id, title, className = "", children }: { id: string; title: string; className?: string; children: React.ReactNode }) {
  return (
    <section className={`rounded-xl border border-stone-200 bg-white p-4 shadow-sm ${className}`.trim()} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="font-semibold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One fact of a detail screen's list (<dl>): its name and its value; data-* attributes go on the value. */
export function Fact({
  label,
  className,
  children,
  ...data
}: { label: React.ReactNode; className?: string; children: React.ReactNode } & { [attribute: `data-${string}`]: string | number | boolean | undefined }) {
  return (
    <div>
      <dt className="text-stone-600">{label}</dt>
      <dd className={className} {...data}>
        {children}
      </dd>
    </div>
  );
}

/** A labelled control with its (translated) error underneath, tied together for screen readers. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | null;
  hint?: string;
  children: (props: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => React.ReactNode;
}) {
  const { t } = useT();
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": described })}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-stone-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700" data-field-error>
          {t(error)}
        </p>
      )}
    </div>
  );
}

/**
 * A search box that applies itself 500 ms after typing stops (back to page 1, as the page number is
 * not sent). Without JavaScript it is an ordinary GET form with a search button.
 */
export function SearchBox({
  q,
  placeholder,
  label,
  hidden = {},
}: {
  q: string;
  placeholder: string;
  label: string;
  hidden?: Record<string, string | null | undefined>;
}) {
  const { t } = useT();
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  // When the search changes elsewhere (a link, a redirect after saving), show it, unless it is being typed.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q;
  }, [q]);
  return (
    <Form method="get" role="search" className="flex w-full max-w-md items-center gap-2" preventScrollReset>
      {Object.entries(hidden).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <label className="sr-only" htmlFor="admin-search">
        {label}
      </label>
      <input
        ref={input}
        id="admin-search"
        type="search"
        name="q"
        defaultValue={q}
        placeholder={placeholder}
        maxLength={100}
        autoComplete="off"
        className={inputClass}
        onChange={(event) => {
          const form = event.currentTarget.form;
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 500);
        }}
      />
      <button type="submit" className={iconButton} aria-label={t("admin.common.search")}>
        <Search aria-hidden="true" size={20} />
      </button>
    </Form>
  );
}

/** Page links: the first and last pages, two either side of the current one, and ellipses between. */
export function Pagination({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  const { t } = useT();
  if (pages <= 1) return null;
  const shown = new Set([1, pages]);
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pages) shown.add(p);
  const list = [...shown].sort((a, b) => a - b);
  const link = "inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-3 text-sm";
  return (
    <nav aria-label={t("admin.pagination.label")} className="mt-4 flex flex-wrap items-center gap-1">
      {page > 1 ? (
        <Link to={href(page - 1)} className={`${link} hover:bg-stone-100`} preventScrollReset>
          {t("admin.pagination.previous")}
        </Link>
      ) : (
        <span aria-disabled="true" className={`${link} text-stone-600 opacity-70`}>{t("admin.pagination.previous")}</span>
      )}
      {list.map((p, i) => (
        <span key={p} className="contents">
          {i > 0 && p - list[i - 1] > 1 && <span className="px-1 text-stone-500">…</span>}
          {p === page ? (
            <span aria-current="page" className={`${link} bg-ink font-semibold text-white`}>
              {p}
            </span>
          ) : (
            <Link to={href(p)} className={`${link} hover:bg-stone-100`} preventScrollReset aria-label={t("admin.pagination.page", { page: p })}>
              {p}
            </Link>
          )}
        </span>
      ))}
      {page < pages ? (
        <Link to={href(page + 1)} className={`${link} hover:bg-stone-100`} preventScrollReset>
          {t("admin.pagination.next")}
        </Link>
      ) : (
        <span aria-disabled="true" className={`${link} text-stone-600 opacity-70`}>{t("admin.pagination.next")}</span>
      )}
    </nav>
  );
}

/**
 * A modal dialog opened by the URL (e.g. ?new=1), so it works without JavaScript too. Closing it goes
 * back to the list's URL; Escape closes it when JavaScript runs.
 */
export function Dialog({ title, closeHref, children, wide = false }: { title: string; closeHref: string; children: React.ReactNode; wide?: boolean }) {
  const { t } = useT();
  const navigate = useNavigate();
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(closeHref, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    const first = panel.current?.querySelector<HTMLElement>("input:not([type=hidden]), select, textarea, button[type=submit]");
    (first ?? panel.current)?.focus();
    return () => document.removeEventListener("keydown", onKey);
  }, [closeHref, navigate]);
  return (
    <div className="fixed inset-0 z-40 flex items-end justify-center bg-black/50 sm:items-center sm:p-4">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        tabIndex={-1}
        className={`max-h-[100dvh] w-full overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl sm:rounded-2xl ${wide ? "sm:max-w-2xl" : "sm:max-w-lg"}`}
      >
        <div className="mb-4 flex items-center justify-between gap-4">
          <h2 id={id} className="text-lg font-semibold text-ink">
            {title}
          </h2>
          <Link to={closeHref} className={iconButton} aria-label={t("admin.common.close")} preventScrollReset replace>
            <X aria-hidden="true" size={20} />
          </Link>
        </div>
        {children}
      </div>
    </div>
  );
}

/** The shared status badge, with the admin screens' wording. */
export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useT();
  return <OrderStatusBadge status={status} label={t(`admin.orders.status.${status}`)} />;
}

/** A table that scrolls sideways on a narrow screen; the scrolling area can be reached by keyboard. */
export function TableScroller({ label, className = "", children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600 ${className}`}>
      {children}
    </div>
  );
}

/** A heading of a list table; `right` for figures and actions. */
export interface ListColumn {
  key: string;
  label: React.ReactNode;
  right?: boolean;
}

/**
 * A list screen's table in its bordered scroller: the headings, a row saying why the list is empty
 * (`empty`, shown when given), and the rows.
 */
export function ListTable({
  label,
  columns,
  empty,
  className = "",
  tableClassName,
  children,
}: {
  label: string;
  columns: readonly ListColumn[];
  empty?: React.ReactNode;
  /** spacing around the table */
  className?: string;
  tableClassName: string;
  children: React.ReactNode;
}) {
  return (
    <TableScroller label={label} className={`${className} rounded-xl border border-stone-200 bg-white shadow-sm`.trim()}>
      <table className={tableClassName}>
        <thead className="bg-stone-50 text-stone-600">
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.right ? "px-3 py-3 text-right font-medium" : "px-3 py-3 font-medium"}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-8 text-center text-stone-600">
                {empty}
              </td>
            </tr>
          ) : null}
          {children}
        </tbody>
      </table>
    </TableScroller>
  );
}

/**
 * A list screen's filters: a GET form that applies itself when a choice changes (without JavaScript,
 * by its button); the current search travels with it.
 */
export function FilterForm({ q, className = "flex flex-wrap items-end gap-2", children }: { q?: string; className?: string; children: React.ReactNode }) {
  const { t } = useT();
  const submit = useSubmit();
  return (
    <Form method="get" className={className} onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}>
      {q && <input type="hidden" name="q" value={q} />}
      {children}
      <button type="submit" className="min-h-11 rounded-lg border border-stone-300 bg-white px-4 text-sm">
        {t("admin.orders.filters.apply")}
      </button>
    </Form>
  );
}

/** One labelled choice of a filter form: "any" first, then the options as [value, text]. */
export function FilterSelect({
  name,
  label,
  value,
  any,
  options,
  id,
}: {
  name: string;
  label: string;
  value: string | number | null | undefined;
  any: string;
  options: readonly (readonly [string | number, string])[];
  id?: string;
}) {
  return (
    <label className="text-sm" htmlFor={id}>
      <span className="block text-stone-600">{label}</span>
      <select id={id} name={name} defaultValue={value ?? ""} className={inputClass}>
        <option value="">{any}</option>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Builds a URL of the current screen from its parameters, leaving out empty ones. */
export function screenHref(path: string, params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "" && !(key === "page" && Number(value) === 1)) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The edit and delete links at the end of a list row; both open a dialog through the URL. */
export function RowActions({ editHref, editLabel, deleteHref, deleteLabel }: { editHref: string; editLabel: string; deleteHref: string; deleteLabel: string }) {
  return (
    <td className="whitespace-nowrap px-3 py-1 text-right">
      <Link to={editHref} className={iconButton} aria-label={editLabel} preventScrollReset>
        <Pencil aria-hidden="true" size={18} />
      </Link>
      <Link to={deleteHref} className={`${iconButton} hover:text-red-700`} aria-label={deleteLabel} preventScrollReset>
        <Trash2 aria-hidden="true" size={18} />
      </Link>
    </td>
  );
}

/**
 * "Delete this?" for a list row. It posts through the list's fetcher, so the row can leave the list at
 * once and come back if the server refuses; the list's search and page travel with it.
 */
export function ConfirmDelete({
  remover,
  title,
  question,
  id,
  q,
  page,
  closeHref,
  blocked = false,
  confirmLabel,
  children,
}: {
  remover: FetcherWithComponents<unknown>;
  title: string;
  question: string;
  id: number;
  q: string;
  page: number;
  closeHref: string;
  /** true: say why (in children) and offer no delete button */
  blocked?: boolean;
  confirmLabel?: string;
  /** more to say, and fields sent with the delete */
  children?: React.ReactNode;
}) {
  const { t } = useT();
  return (
    <Dialog title={title} closeHref={closeHref}>
      <p className="text-stone-700">{question}</p>
      <remover.Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="q" value={q} />
        <input type="hidden" name="page" value={page} />
        {children}
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <Link to={closeHref} className={secondaryButton} preventScrollReset replace>
            {t("admin.common.cancel")}
          </Link>
          {!blocked && (
            <button type="submit" className={dangerButton}>
              {confirmLabel ?? t("admin.common.delete")}
            </button>
          )}
        </div>
      </remover.Form>
    </Dialog>
  );
}
