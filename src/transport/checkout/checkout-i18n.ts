import type { CheckoutLanguage } from '../../modules/checkout/checkout.views';

/**
 * Every word the checkout pages show, in English and French. `{name}` marks a value the page fills
 * in per request (escaped); everything else is fixed text, built into the templates once per language.
 */
export type { CheckoutLanguage };

const EN = {
  pageTitle: 'Pay {merchant}',
  amountDue: 'Amount to pay',
  chooseMethod: 'How do you want to pay?',
  momo: 'Mobile money',
  card: 'Card',
  bankTransfer: 'Bank transfer',
  phone: 'Mobile money number',
  phoneHint: 'The number of the wallet that pays',
  network: 'Network',
  detectNetwork: 'Detect from my number',
  predicted: 'Looks like {network}',
  payMomo: 'Send the payment request',
  cardNumber: 'Card number',
  expiryMonth: 'Expiry month (MM)',
  expiryYear: 'Expiry year (YY)',
  cvc: 'Security code (CVC)',
  postalCode: 'Billing address postal code (optional)',
  pinToggle: 'My card asks for a PIN',
  addressToggle: 'Billing address (if your bank asks for it)',
  addressLine: 'Street address',
  addressCity: 'City',
  addressState: 'State or region',
  addressCountry: 'Country code (e.g. NG, US)',
  pin: 'Card PIN',
  pinHint: 'Only for cards that ask for it (Verve). It goes to your bank and is never stored.',
  payCard: 'Pay {amount}',
  payBank: 'Pay by bank transfer',
  bankIntro: 'You will get an account number to pay into from your bank app, USSD or at a branch.',
  failedTitle: 'The payment did not go through',
  tryAgain: 'Try again below, with the same method or another one.',
  checkPhoneTitle: 'Check your phone',
  checkPhoneBody: 'We sent a payment request to {phone} ({network}). Approve it on your phone: enter your PIN when asked.',
  checkPhoneWait: 'Waiting for your approval…',
  approveLink: 'Approve the payment',
  approveLinkHint: 'Your network asks you to confirm on its page.',
  noPrompt: 'Didn’t get the prompt?',
  noPromptRetry: 'Try again',
  noPromptHint: 'Check that your phone is on and has signal, then send the request again.',
  promptStillOpen:
    'Your first payment request is still open on the network, so we cannot send another yet: approve it on your phone if it shows, or wait until it expires, then try again. Nothing was charged.',
  promptStillOpenUntil:
    'Your first payment request is still open on the network until {time}, so we cannot send another yet: approve it on your phone if it shows, or wait until it expires, then try again. Nothing was charged.',
  threeDsTitle: 'Confirm with your bank',
  threeDsBody: 'Your bank needs to confirm this payment.',
  continueToBank: 'Continue to your bank',
  processingTitle: 'Confirming your payment',
  processingBody: 'This takes a few seconds. This page updates by itself.',
  bankTitle: 'Pay by bank transfer',
  bankBody: 'Transfer exactly the amount below to this account, from your bank app, USSD or at a branch.',
  bankAmount: 'Amount',
  accountNumber: 'Account number',
  bankName: 'Bank',
  accountName: 'Account name',
  copy: 'Copy',
  copied: 'Copied',
  payBefore: 'Pay before {time} ({left})',
  aboutMinutes: 'about {n} minutes',
  aboutMinute: 'about 1 minute',
  aboutHours: 'about {n} hours',
  expiredNow: 'the time is up',
  differentAmount:
    'Send exactly this amount: a different one is not settled automatically. More completes this payment, and the extra is returned to you or passed to {merchant} once a person has checked it. Less does not complete it: this page keeps waiting, and the money is returned to you or credited to {merchant} once a person has checked it. Either way it is not lost; contact {merchant} if it happens.',
  bankAfter: 'Once you have paid, this page updates by itself when the money arrives.',
  completeTitle: 'Payment successful',
  completeBody: 'Your payment of {amount} to {merchant} is complete.',
  returnTo: 'Return to {merchant}',
  expiredTitle: 'This checkout has expired',
  expiredBody: 'Nothing was charged. Go back to {merchant} to start again.',
  backTo: 'Back to {merchant}',
  cancel: 'Cancel and return to {merchant}',
  secured: 'Secure, encrypted payment. Your card’s security code and PIN are never stored.',
  linkAmount: 'Amount ({currency})',
  linkAmountHint: 'Between {min} and {max}',
  linkAmountMin: 'At least {min}',
  linkAmountMax: 'At most {max}',
  email: 'Email',
  phoneNumber: 'Phone number',
  fullName: 'Full name',
  continue: 'Continue to payment',
  linkInactive: 'This payment link is no longer active',
  linkExpired: 'This payment link has expired',
  linkUsedUp: 'This payment link has already been used',
  linkGone: 'Ask {merchant} for a new link. Nothing was charged.',
  invalidTitle: 'This checkout link is not valid',
  invalidBody: 'Check the link you were given, or ask the merchant for a new one.',
  formExpired: 'This form has expired or did not come from this page. Reload the page and try again. Nothing was changed.',
  otpTitle: 'Enter the code your bank sent',
  otpHeading: 'Confirm your payment',
  otpConfirm: 'Confirm',
  otpNote: 'The code came to the phone number or email your bank has for this card.',
  otpWrong: 'The code is not right; try again.',
  otpDigitsOnly: 'Enter the code your bank sent: digits only.',
  otpInvalidTitle: 'Link not valid',
  otpInvalidBody: 'This payment link is not valid. Nothing was changed.',
  otpExpiredTitle: 'Time is up',
  otpExpiredBody: 'The time to confirm this payment has passed, so it can no longer be completed.',
  otpDecidedTitle: 'Already decided',
  otpDecidedBody: 'This payment is already {status}. Nothing was changed.',
  otpFormExpiredTitle: 'Form expired',
  otpLateTitle: 'Try again shortly',
  otpLateBody: 'Your bank did not answer in time. Wait a moment, then reload this page.',
  otpPendingTitle: 'Payment being confirmed',
  otpPendingBody: 'Your bank has the code and has not answered yet. The merchant will be told as soon as it does.',
  otpConfirmedTitle: 'Payment confirmed',
  otpFailedTitle: 'Payment failed',
  otpOutcomeBody: 'The payment is {status}. You can close this window.',
};

export type CheckoutStrings = Record<keyof typeof EN, string>;

const FR: CheckoutStrings = {
  pageTitle: 'Payer {merchant}',
  amountDue: 'Montant à payer',
  chooseMethod: 'Comment voulez-vous payer ?',
  momo: 'Mobile money',
  card: 'Carte',
  bankTransfer: 'Virement bancaire',
  phone: 'Numéro mobile money',
  phoneHint: 'Le numéro du portefeuille qui paie',
  network: 'Réseau',
  detectNetwork: 'Reconnaître d’après mon numéro',
  predicted: 'Sans doute {network}',
  payMomo: 'Envoyer la demande de paiement',
  cardNumber: 'Numéro de carte',
  expiryMonth: 'Mois d’expiration (MM)',
  expiryYear: 'Année d’expiration (AA)',
  cvc: 'Code de sécurité (CVC)',
  postalCode: 'Code postal de l’adresse de facturation (facultatif)',
  pinToggle: 'Ma carte demande un code PIN',
  addressToggle: 'Adresse de facturation (si votre banque la demande)',
  addressLine: 'Adresse',
  addressCity: 'Ville',
  addressState: 'État ou région',
  addressCountry: 'Code du pays (ex. CI, FR)',
  pin: 'Code PIN de la carte',
  pinHint: 'Seulement pour les cartes qui le demandent (Verve). Il va à votre banque et n’est jamais conservé.',
  payCard: 'Payer {amount}',
  payBank: 'Payer par virement bancaire',
  bankIntro: 'Vous recevrez un numéro de compte à créditer depuis votre application bancaire, par USSD ou en agence.',
  failedTitle: 'Le paiement n’a pas abouti',
  tryAgain: 'Réessayez ci-dessous, avec le même moyen ou un autre.',
  checkPhoneTitle: 'Regardez votre téléphone',
  checkPhoneBody:
    'Nous avons envoyé une demande de paiement au {phone} ({network}). Validez-la sur votre téléphone : saisissez votre code secret quand il est demandé.',
  checkPhoneWait: 'En attente de votre validation…',
  approveLink: 'Valider le paiement',
  approveLinkHint: 'Votre opérateur vous demande de confirmer sur sa page.',
  noPrompt: 'Vous n’avez rien reçu ?',
  noPromptRetry: 'Réessayer',
  noPromptHint: 'Vérifiez que votre téléphone est allumé et capte le réseau, puis renvoyez la demande.',
  promptStillOpen:
    'Votre première demande de paiement est toujours ouverte sur le réseau : nous ne pouvons pas encore en envoyer une autre. Validez-la sur votre téléphone si elle s’affiche, ou attendez qu’elle expire, puis réessayez. Rien n’a été débité.',
  promptStillOpenUntil:
    'Votre première demande de paiement est toujours ouverte sur le réseau jusqu’à {time} : nous ne pouvons pas encore en envoyer une autre. Validez-la sur votre téléphone si elle s’affiche, ou attendez qu’elle expire, puis réessayez. Rien n’a été débité.',
  threeDsTitle: 'Confirmez auprès de votre banque',
  threeDsBody: 'Votre banque doit confirmer ce paiement.',
  continueToBank: 'Continuer vers votre banque',
  processingTitle: 'Confirmation de votre paiement',
  processingBody: 'Cela prend quelques secondes. Cette page se met à jour toute seule.',
  bankTitle: 'Payer par virement bancaire',
  bankBody: 'Virez exactement le montant ci-dessous sur ce compte, depuis votre application bancaire, par USSD ou en agence.',
  bankAmount: 'Montant',
  accountNumber: 'Numéro de compte',
  bankName: 'Banque',
  accountName: 'Titulaire du compte',
  copy: 'Copier',
  copied: 'Copié',
  payBefore: 'Payez avant {time} ({left})',
  aboutMinutes: 'environ {n} minutes',
  aboutMinute: 'environ 1 minute',
  aboutHours: 'environ {n} heures',
  expiredNow: 'le délai est écoulé',
  differentAmount:
    'Virez exactement ce montant : un autre montant n’est pas traité automatiquement. Plus, et ce paiement aboutit ; le surplus vous est rendu ou reversé à {merchant} après vérification par une personne. Moins, et il n’aboutit pas : cette page reste en attente, et la somme vous est rendue ou créditée à {merchant} après vérification par une personne. Dans les deux cas, rien n’est perdu ; contactez {merchant} si cela arrive.',
  bankAfter: 'Une fois le virement fait, cette page se met à jour toute seule à l’arrivée des fonds.',
  completeTitle: 'Paiement réussi',
  completeBody: 'Votre paiement de {amount} à {merchant} est effectué.',
  returnTo: 'Retourner sur {merchant}',
  expiredTitle: 'Ce paiement a expiré',
  expiredBody: 'Rien n’a été débité. Retournez sur {merchant} pour recommencer.',
  backTo: 'Retour à {merchant}',
  cancel: 'Annuler et retourner sur {merchant}',
  secured: 'Paiement sécurisé et chiffré. Le code de sécurité et le code PIN de votre carte ne sont jamais conservés.',
  linkAmount: 'Montant ({currency})',
  linkAmountHint: 'Entre {min} et {max}',
  linkAmountMin: 'Au moins {min}',
  linkAmountMax: 'Au plus {max}',
  email: 'E-mail',
  phoneNumber: 'Numéro de téléphone',
  fullName: 'Nom complet',
  continue: 'Continuer vers le paiement',
  linkInactive: 'Ce lien de paiement n’est plus actif',
  linkExpired: 'Ce lien de paiement a expiré',
  linkUsedUp: 'Ce lien de paiement a déjà été utilisé',
  linkGone: 'Demandez un nouveau lien à {merchant}. Rien n’a été débité.',
  invalidTitle: 'Ce lien de paiement n’est pas valide',
  invalidBody: 'Vérifiez le lien reçu, ou demandez-en un nouveau au marchand.',
  formExpired: 'Ce formulaire a expiré ou ne vient pas de cette page. Rechargez la page et réessayez. Rien n’a été modifié.',
  otpTitle: 'Saisissez le code envoyé par votre banque',
  otpHeading: 'Confirmez votre paiement',
  otpConfirm: 'Confirmer',
  otpNote: 'Le code a été envoyé au numéro de téléphone ou à l’adresse e-mail que votre banque connaît pour cette carte.',
  otpWrong: 'Ce code n’est pas le bon ; réessayez.',
  otpDigitsOnly: 'Saisissez le code envoyé par votre banque : des chiffres uniquement.',
  otpInvalidTitle: 'Lien non valide',
  otpInvalidBody: 'Ce lien de paiement n’est pas valide. Rien n’a été modifié.',
  otpExpiredTitle: 'Le délai est écoulé',
  otpExpiredBody: 'Le délai pour confirmer ce paiement est passé : il ne peut plus aboutir.',
  otpDecidedTitle: 'Déjà décidé',
  otpDecidedBody: 'Ce paiement est déjà décidé (statut : {status}). Rien n’a été modifié.',
  otpFormExpiredTitle: 'Formulaire expiré',
  otpLateTitle: 'Réessayez dans un instant',
  otpLateBody: 'Votre banque n’a pas répondu à temps. Patientez un instant, puis rechargez cette page.',
  otpPendingTitle: 'Paiement en cours de confirmation',
  otpPendingBody: 'Votre banque a reçu le code et n’a pas encore répondu. Le marchand sera prévenu dès qu’elle le fera.',
  otpConfirmedTitle: 'Paiement confirmé',
  otpFailedTitle: 'Échec du paiement',
  otpOutcomeBody: 'Statut du paiement : {status}. Vous pouvez fermer cette fenêtre.',
};

export const CHECKOUT_STRINGS: Readonly<Record<CheckoutLanguage, CheckoutStrings>> = { en: EN, fr: FR };

/** Why an attempt failed, in plain words; the transaction's reason codes the payer is likely to see. */
const FAILURES: Record<CheckoutLanguage, Record<string, string>> = {
  en: {
    insufficient_funds: 'There was not enough money in the account or wallet.',
    card_declined: 'Your bank declined the card. Try another card or method, or call your bank.',
    authentication_failed: 'Your bank could not confirm it was you.',
    authentication_expired: 'The confirmation with your bank took too long.',
    pin_required: 'Your card needs its PIN: enter the card again with its PIN.',
    incorrect_pin: 'Your bank did not accept the PIN. Enter the card again with its PIN.',
    address_required: 'Your bank asks for the card’s billing address; this card cannot be paid here without it. Try another card or method.',
    not_paid_before_expiry: 'The transfer did not arrive before the time ran out. Nothing was taken.',
    timeout: 'The payment was not approved in time.',
    processing_error: 'Something went wrong on the payment network. Nothing was taken; please try again.',
    default: 'The payment was not completed.',
  },
  fr: {
    insufficient_funds: 'Le solde du compte ou du portefeuille était insuffisant.',
    card_declined: 'Votre banque a refusé la carte. Essayez une autre carte ou un autre moyen, ou appelez votre banque.',
    authentication_failed: 'Votre banque n’a pas pu confirmer votre identité.',
    authentication_expired: 'La confirmation auprès de votre banque a pris trop de temps.',
    pin_required: 'Votre carte demande son code PIN : saisissez à nouveau la carte avec son code PIN.',
    incorrect_pin: 'Votre banque n’a pas accepté le code PIN. Saisissez à nouveau la carte avec son code PIN.',
    address_required:
      'Votre banque demande l’adresse de facturation de la carte ; cette carte ne peut pas être payée ici sans elle. Essayez une autre carte ou un autre moyen.',
    not_paid_before_expiry: 'Le virement n’est pas arrivé dans le délai. Rien n’a été débité.',
    timeout: 'Le paiement n’a pas été validé à temps.',
    processing_error: 'Un incident est survenu sur le réseau de paiement. Rien n’a été débité ; veuillez réessayer.',
    default: 'Le paiement n’a pas abouti.',
  },
};

/** The failure reason `reason` (a transaction's `failure_reason`) in plain words; a generic sentence for any other. */
export function failureMessage(reason: string | null, lang: CheckoutLanguage): string {
  const table = FAILURES[lang];
  return (reason !== null && Object.hasOwn(table, reason) ? table[reason] : table.default)!;
}

/** A payment's status in words, as the one-time code page says it. */
const STATUS_WORDS: Record<CheckoutLanguage, Record<string, string>> = {
  en: {},
  fr: {
    successful: 'réussi',
    failed: 'échoué',
    expired: 'expiré',
    requires_action: 'en attente de confirmation',
    processing: 'en cours',
    initiating: 'en cours',
    refunded: 'remboursé',
    partially_refunded: 'partiellement remboursé',
  },
};

/** `successful`, `requires action`…; in French, its word. */
export function statusWord(status: string, lang: CheckoutLanguage): string {
  return STATUS_WORDS[lang][status] ?? status.replace(/_/g, ' ');
}

/** Countries whose payers read French first (the page's language without a browser preference between en and fr). */
const FRANCOPHONE_COUNTRIES: ReadonlySet<string> = new Set(['BJ', 'BF', 'CM', 'CI', 'CD', 'CG', 'GA', 'ML', 'SN', 'TG', 'NE', 'GN']);

/**
 * The page's language: the browser's Accept-Language decides between English and French, by
 * quality and, at equal quality, by the order it lists them in (`fr-CI` counts as French, `*` as
 * neither); when it names neither, French for a francophone country and English elsewhere.
 */
export function chooseLanguage(acceptLanguage: string | undefined, countryCode: string | null): CheckoutLanguage {
  let best: { lang: CheckoutLanguage; q: number } | null = null;
  for (const part of (acceptLanguage ?? '').slice(0, 1024).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'en' && primary !== 'fr') continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (m) q = Math.min(1, Number(m[1]));
    }
    if (q > 0 && (best === null || q > best.q)) best = { lang: primary, q };
  }
  if (best) return best.lang;
  return countryCode !== null && FRANCOPHONE_COUNTRIES.has(countryCode.toUpperCase()) ? 'fr' : 'en';
}
