/** The profile's store credit and its movements: markup the loader wrote (docs/decisions/224). */
export function ProfileCredit({ html }: { html: string }) {
  return <section aria-labelledby="credit-heading" className="mt-6 text-sm" data-testid="profile-credit" dangerouslySetInnerHTML={{ __html: html }} />;
}
