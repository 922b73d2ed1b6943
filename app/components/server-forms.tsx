import { useFetcher } from "react-router";

/**
 * Plain forms the loader wrote, texts included (the checkout's discount code and its store credit and
 * gift card box: docs/decisions/219, 224), so the page's script carries none of them (the JavaScript
 * budget). Without JavaScript they post and come back as any form does; with it they post through a
 * fetcher, so the checkout's own form, outside them, keeps what the shopper typed, and a refusal's
 * message shows under them.
 */
export function ServerForms({ html, testId, labelledBy }: { html: string; testId: string; labelledBy?: string }) {
  const fetcher = useFetcher<{ message?: string }>();
  const refused = fetcher.state === "idle" ? fetcher.data?.message : undefined;
  return (
    <section
      aria-labelledby={labelledBy}
      className="mt-4 border-t border-stone-200 pt-3 text-sm"
      data-testid={testId}
      onSubmit={(event) => {
        event.preventDefault();
        fetcher.submit(event.target as HTMLFormElement);
      }}
    >
      <div dangerouslySetInnerHTML={{ __html: html }} />
      {refused && (
        <p role="alert" className="mt-1 text-rose-700">
          {refused}
        </p>
      )}
    </section>
  );
}
