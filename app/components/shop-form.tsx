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
  // Submission options act in the browser; they write nothing.
  const {
    action,
    method = "get",
    discover = "render",
    relative,
    reloadDocument,
    fetcherKey: _fetcherKey,
    navigate: _navigate,
    replace: _replace,
    state: _state,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    onSubmit: _onSubmit,
    ...rest
  } = props;
  if (typeof action !== "string" || !PLAIN_PATH.test(action) || action.includes("//") || relative || reloadDocument) {
    return <Form {...props} />;
  }
  return <form {...rest} method={method.toLowerCase() === "get" ? "get" : "post"} action={action} data-discover={discover === "render" ? "true" : undefined} />;
}

/** The shop's form: the router's `<Form>` in the browser; on the server, `ServerForm`. */
export const ShopForm: typeof Form = import.meta.env.SSR ? (ServerForm as typeof Form) : Form;

const ServerFetcherForm = (props: FormProps) => <ServerForm {...props} navigate={false} />;

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
