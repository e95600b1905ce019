import { ProviderRefusal } from '../connector';

/**
 * The sandbox's account holders (CONTRACT §6b): decided by the account number's (or wallet's) last digits, so a test
 * can reach every answer. `…0000`: no such account (404). `…9999`: the bank does not answer (503). Otherwise the
 * last digit picks a name (an account number ending in a letter does not exist).
 */
const SANDBOX_ACCOUNT_HOLDERS = [
  'Adaeze Okafor',
  'Chinedu Emeka Nwosu',
  'Amina Bello',
  'Kwame Mensah',
  'Wanjiru Kamau',
  'Thabo Mokoena',
  'Fatou Diop',
  'Jean-Paul Mbemba',
  'Grace Achieng Otieno',
  'Zoë Adébáyọ̀',
] as const;

/** The holder's name by the table; NOT_FOUND for `…0000`; an unanswered call (a plain error) for `…9999`. */
export function sandboxAccountHolder(accountNumber: string): string {
  if (accountNumber.endsWith('0000')) throw new ProviderRefusal('NOT_FOUND', 'No account with this number exists at this bank or network', 'account_not_found');
  if (accountNumber.endsWith('9999')) throw new Error('sandbox: the account holder’s bank is not answering (an account number ending in 9999)');
  const last = Number(accountNumber.at(-1));
  if (!Number.isInteger(last)) throw new ProviderRefusal('NOT_FOUND', 'No account with this number exists at this bank or network', 'account_not_found');
  return SANDBOX_ACCOUNT_HOLDERS[last]!;
}
