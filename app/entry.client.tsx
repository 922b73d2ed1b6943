import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { DEFAULT_LOCALE, I18nProvider, isLocale } from "./lib/i18n";
import { loadMessages } from "./lib/i18n.client";

// The page is already readable (server-rendered); hydration waits only for the shopper's language.
// Changing language reloads the document, so the language never changes under a hydrated page.
const lang = document.documentElement.lang;
const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;

void loadMessages(locale, window.location.pathname).then((messages) => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <I18nProvider locale={locale} messages={messages}>
          <HydratedRouter />
        </I18nProvider>
      </StrictMode>,
    );
  });
});
