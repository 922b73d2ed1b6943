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
        className="inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-full bg-[#1f7a4d] px-5 font-medium text-white hover:bg-[#176240] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-600"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="currentColor">
          <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8s-.4-.1-.6.1-.7.8-.8 1-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.3-.4.2-.4.7-1.4a.5.5 0 0 0 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.9 11.9 0 0 0 4.5 4c1.7.7 2.4.8 3.2.6a2.8 2.8 0 0 0 1.8-1.3 2.3 2.3 0 0 0 .2-1.3c-.1-.1-.3-.2-.5-.3z" />
        </svg>
        {label}
      </button>
      <p id={hintId} className="mt-1 text-center text-xs text-stone-600">
        {hint}
      </p>
    </form>
  );
}
