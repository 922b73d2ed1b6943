/** Review length limits, shared by the form (browser hints) and the server's rules (docs/decisions/134). */
export const REVIEW_MAX_LENGTH = 2000;
export const REVIEW_MIN_LENGTH = 10;
