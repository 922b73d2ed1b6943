/** The guest checkout's texts, written by the page's loader (they stay out of the page's script). */
export interface GuestTexts {
  heading: string;
  /** "Have an account? Sign in: your cart comes with you." */
  signIn: [before: string, link: string, after: string];
  name: string;
  email: string;
  emailHint: string;
  /** the marketing opt-in's words (unticked unless this cart carries the guest's opt-in) */
  marketing: string;
  marketingOn: boolean;
}

/**
 * A guest's name and e-mail at checkout (docs/decisions/217), with a way to sign in instead that keeps
 * the cart, and the unticked marketing opt-in (docs/decisions/220), kept on the cart when ticked.
 * `errors` are already translated by the action. Kept small: it ships with every checkout.
 */
export function GuestContactFields({ texts, values, errors }: { texts: GuestTexts; values?: { name?: string; email?: string }; errors: { name?: string; email?: string } }) {
  return (
    <fieldset className="max-w-xl space-y-3">
      <legend className="font-semibold">{texts.heading}</legend>
      <p className="text-sm text-stone-600">
        {texts.signIn[0]} <a href="/auth?redirectTo=%2Fcheckout" className="font-medium underline">{texts.signIn[1]}</a>
        {texts.signIn[2]}
      </p>
      {(["name", "email"] as const).map((name) => (
        <div key={name}>
          <label htmlFor={`checkout-${name}`} className="text-sm font-medium">
            {texts[name]}
          </label>
          <input
            id={`checkout-${name}`}
            name={name}
            type={name === "email" ? "email" : "text"}
            autoComplete={name}
            maxLength={254}
            defaultValue={values?.[name]}
            aria-invalid={errors[name] ? true : undefined}
            aria-describedby={`${name}-note`}
            className="mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base aria-[invalid=true]:border-rose-600"
          />
          <p id={`${name}-note`} className={`mt-1 text-sm ${errors[name] ? "text-rose-700" : "text-stone-600"}`}>
            {errors[name] ?? (name === "email" ? texts.emailHint : "")}
          </p>
        </div>
      ))}
      <label className="flex gap-3 text-sm">
        <input type="checkbox" name="marketing" defaultChecked={texts.marketingOn} className="h-5 w-5" />
        {texts.marketing}
      </label>
    </fieldset>
  );
}
