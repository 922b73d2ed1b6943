import { createElement } from "react";
import { type FetcherWithComponents, Form, type FormProps, useFetcher } from "react-router";
import { PLAIN_PATH } from "./shop-link";

/**
 * On the server, a form posting (or getting) to one of the shop's own paths, written as the router's
 * `<Form>` and `<fetcher.Form>` write it, without the router's hooks: a listing has two on every card
 * (Add to Cart and the heart) and the header two searches, and resolving each through the router was
 * a few per cent of a page's render (#14). Anything else (a relative or absolute URL, no action,
 * reloadDocument) is the router's `<Form>`.
 */
export function ServerForm(props: FormProps) {
  const { action, method = "get", discover = "render", relative, reloadDocument } = props;
  if (typeof action !== "string" || !PLAIN_PATH.test(action) || action.includes("//") || relative || reloadDocument) {
    return <Form {...props} />;
  }
  // The attributes are copied key by key: an object rest leaving out the dozen options was most of
  // this function's time, and it runs twice for every card.
  const attributes: Record<string, unknown> = {};
  for (const key in props) if (!FORM_OPTIONS.has(key)) attributes[key] = props[key as keyof FormProps];
  attributes.method = method.toLowerCase() === "get" ? "get" : "post";
  attributes.action = action;
  attributes["data-discover"] = discover === "render" ? "true" : undefined;
  return createElement("form", attributes);
}

/** The router's submission options: they act in the browser and write nothing. */
const FORM_OPTIONS: ReadonlySet<string> = new Set([
  "action",
  "method",
  "discover",
  "relative",
  "reloadDocument",
  "fetcherKey",
  "navigate",
  "replace",
  "state",
  "preventScrollReset",
  "viewTransition",
  "defaultShouldRevalidate",
  "onSubmit",
] satisfies (keyof FormProps)[]);

/** The shop's form: the router's `<Form>` in the browser; on the server, `ServerForm`. */
export const ShopForm: typeof Form = import.meta.env.SSR ? (ServerForm as typeof Form) : Form;

const ServerFetcherForm = (props: FormProps) => ServerForm({ ...props, navigate: false });

/** A fetcher on the server: idle, with no answer, its form the one above. */
const SERVER_FETCHER = {
  state: "idle",
  data: undefined,
  formData: undefined,
  json: undefined,
  text: undefined,
  formAction: undefined,
  formMethod: undefined,
  formEncType: undefined,
  Form: ServerFetcherForm,
  submit: () => Promise.resolve(),
  load: () => Promise.resolve(),
  reset: () => {},
  key: "",
} as unknown as FetcherWithComponents<unknown>;

const useServerFetcher = (() => SERVER_FETCHER) as typeof useFetcher;

/**
 * The fetcher of the cards' forms: the router's `useFetcher` in the browser (no reload, the state of
 * the submission); on the server, where a fetcher is always idle, `useServerFetcher`, which writes the
 * same markup for less work. Vite drops the server's from the browser's scripts.
 */
export const useShopFetcher: typeof useFetcher = import.meta.env.SSR ? useServerFetcher : useFetcher;
