/** The ways a domestic payment is paid (issue 37): a card, or a payer in the merchant's own country by mobile money or bank transfer. */
export const PAYMENT_METHODS = ['card', 'momo', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The channel a domestic mobile money or bank transfer payment travels (a card has its own route). */
export const CHANNEL_OF_METHOD = { momo: 'momo', bank_transfer: 'bank' } as const satisfies Record<Exclude<PaymentMethod, 'card'>, 'momo' | 'bank'>;
