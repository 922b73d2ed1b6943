import { Form } from "react-router";

/** The page of a stop link (http/stop-link.server.ts): asks, then shows what the button did. */
export function StopLinkPage({
  texts,
  token,
  message,
}: {
  texts: { title: string; ask: string; confirm: string; unknown: string };
  token: string | null;
  message: string | undefined;
}) {
  return (
    <article className="prose-page">
      <h1>{texts.title}</h1>
      {message ? (
        <p role="status">{message}</p>
      ) : token ? (
        <Form method="post" className="not-prose space-y-4">
          <p>{texts.ask}</p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="btn">
            {texts.confirm}
          </button>
        </Form>
      ) : (
        <p>{texts.unknown}</p>
      )}
    </article>
  );
}
