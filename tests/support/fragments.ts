import type { Fragments } from "~/lib/fragments";
import { fragmentsFor } from "~/lib/fragments.server";
import type { Locale } from "~/lib/i18n";

/** The server's fragments in `locale`, counting the parts asked for and those answered from kept HTML. */
export function countingFragments(locale: Locale) {
  const counts = { asked: 0, kept: 0 };
  const fragments: Fragments = {
    innerHtml: (key, opening, part) => {
      counts.asked++;
      const html = fragmentsFor(locale).innerHtml(key, opening, part);
      if (html !== null) counts.kept++;
      return html;
    },
  };
  return { fragments, counts };
}
