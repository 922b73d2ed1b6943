import { Link } from "react-router";

const inputClass = "mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base aria-[invalid=true]:border-rose-600";

/** The guest checkout's texts, written by the page's loader (they stay out of the page's script). */
export interface GuestTexts {
  heading: string;
  name: string;
  email: string;
  emailHint: string;
  haveAccount: string;
  signIn: string;
  signInHint: string;
}

/**
 * A guest's name and e-mail at checkout (docs/decisions/217), with a way to sign in instead that keeps
 * the cart. `errors` are already translated by the action.
 */
export function GuestContactFields({
  texts,
  values,
  errors,
}: {
  texts: GuestTexts;
  values?: { name?: string; email?: string };
  errors: { name?: string; email?: string };
}) {
  const field = (name: "name" | "email", props: { type: string; autoComplete: string; maxLength: number }, hint?: string) => {
    const id = `checkout-${name}`;
    const describedBy = [errors[name] ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
    return (
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {texts[name]}
        </label>
        <input id={id} name={name} {...props} defaultValue={values?.[name]} aria-invalid={errors[name] ? true : undefined} aria-describedby={describedBy || undefined} className={inputClass} />
        {hint && (
          <p id={`${id}-hint`} className="mt-1 text-sm text-stone-600">
            {hint}
          </p>
        )}
        {errors[name] && (
          <p id={`${id}-error`} className="mt-1 text-sm text-rose-700">
            {errors[name]}
          </p>
        )}
      </div>
    );
  };
  return (
    <fieldset>
      <legend className="font-semibold">{texts.heading}</legend>
      <p className="mt-1 text-sm text-stone-600">
        {texts.haveAccount}{" "}
        <Link to="/auth?redirectTo=%2Fcheckout" className="font-medium underline">
          {texts.signIn}
        </Link>
        : {texts.signInHint}
      </p>
      <div className="mt-3 grid max-w-xl gap-4">
        {field("name", { type: "text", autoComplete: "name", maxLength: 100 })}
        {field("email", { type: "email", autoComplete: "email", maxLength: 254 }, texts.emailHint)}
      </div>
    </fieldset>
  );
}
