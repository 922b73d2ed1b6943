import type { ProfileCreditView } from "~/http/credit-panel.server";

/** The profile's store credit: its balance and every movement, as the loader wrote them (docs/decisions/224). */
export function ProfileCredit({ credit }: { credit: ProfileCreditView }) {
  return (
    <section aria-labelledby="credit-heading" className="mt-6 text-sm" data-testid="profile-credit">
      <h2 id="credit-heading" className="font-semibold">
        {credit.heading}
      </h2>
      <p className="mt-1" data-testid="credit-balance">
        {credit.balance}
      </p>
      <table className="mt-2 w-full max-w-xl text-left">
        <thead>
          <tr className="text-stone-600">
            {credit.headers.map((h) => (
              <th key={h} scope="col" className="py-1 pr-3 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {credit.rows.map((row) => (
            <tr key={row.id} className="border-t border-stone-100">
              <td className="py-1 pr-3 whitespace-nowrap">{row.date}</td>
              <td className="py-1 pr-3">{row.what}</td>
              <td className="py-1 text-right whitespace-nowrap">{row.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
