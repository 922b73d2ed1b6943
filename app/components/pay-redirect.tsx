import { useEffect } from "react";

/** The pay page: on to Paystack (by the page's <meta refresh>, or from here after in-app navigation), with a link if neither moves. */
export function PayRedirect({ url, texts }: { url: string; texts: { title: string; going: string; continue: string } }) {
  // Arrived by in-app navigation, the refresh tag may not be acted on: go on from here.
  useEffect(() => {
    window.location.assign(url);
  }, [url]);
  return (
    <div className="mx-auto max-w-xl py-10 text-center">
      <h1 className="font-serif text-2xl font-semibold">{texts.title}</h1>
      <p className="mt-3 text-stone-600">{texts.going}</p>
      <a href={url} className="mt-6 inline-block rounded-full bg-ink px-5 py-2.5 text-white">
        {texts.continue}
      </a>
    </div>
  );
}

/** The pay page's meta: its title, kept out of search engines, and the refresh that moves on to Paystack. */
export function payMeta(url: string | undefined) {
  return [{ title: "Paystack | Unboxed" }, { name: "robots", content: "noindex" }, ...(url ? [{ httpEquiv: "refresh", content: `0;url=${url}` }] : [])];
}
