/**
 * A plain form opening a new tab: the order is recorded on the server (the cart's `intent=whatsapp`,
 * docs/decisions/032), which then sends that tab on to WhatsApp with the message written out. No
 * JavaScript needed; with an empty cart it is disabled. Needs no payment set up: payment and delivery
 * are agreed in the chat.
 */
export function WhatsAppOrderButton({ disabled = false, label, hint, hintId, className = "" }: { disabled?: boolean; label: string; hint: string; hintId: string; className?: string }) {
  return (
    <form method="post" action="/cart" target="_blank" rel="noopener" className={className}>
      <input type="hidden" name="intent" value="whatsapp" />
      <button
        type="submit"
        disabled={disabled}
        aria-describedby={hintId}
        className="whatsapp-button"
      >
        <img src="/whatsapp.svg" alt="" width="20" height="20" />
        {label}
      </button>
      <p id={hintId} className="mt-1 text-center text-xs text-stone-600">
        {hint}
      </p>
    </form>
  );
}
