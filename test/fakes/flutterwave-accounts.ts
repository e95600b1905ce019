/**
 * The Flutterwave fake's account resolution (POST /v3/accounts/resolve), kept apart from flutterwave.fake.ts.
 *
 * SOURCES: the official Node SDK (Flutterwave/Node-v3) services/misc/rave.resolve.account.js (POST v3/accounts/resolve
 * with `account_bank` and `account_number`, both required, account_number numeric) and documentation/misc.md (the
 * sample: account_number 0690000032 at account_bank 044 → `{status: "success", message: "Account details fetched",
 * data: {account_number: "0690000032", account_name: "Pastor Bright"}}`).
 * CHOSEN (no source read states it): an account the table does not hold → 400 `{status: "error", message: "Sorry,
 * recipient account could not be validated. Please try again", data: null}` (Flutterwave's errors are 400 [D]; the text
 * is as integrations quote it, not read in a Flutterwave document); a missing field → 400 "<field> is required".
 */
const FLW_RESOLVE_NOT_FOUND = 'Sorry, recipient account could not be validated. Please try again';

export class FlutterwaveAccounts {
  /** `account_bank/account_number` → account_name; seeded with the SDK's documented sample. */
  private readonly holders = new Map<string, string>([['044/0690000032', 'Pastor Bright']]);

  /** A test's own account holder. */
  add(accountBank: string, accountNumber: string, accountName: string): void {
    this.holders.set(`${accountBank}/${accountNumber}`, accountName);
  }

  /** The answer to POST /v3/accounts/resolve: 200 with the name, or 400 with a message. */
  resolve(body: Record<string, unknown>): { status: number; message: string; data: { account_number: string; account_name: string } | null } {
    for (const field of ['account_number', 'account_bank'] as const) {
      if (body[field] === undefined || body[field] === null || body[field] === '') return { status: 400, message: `${field} is required`, data: null };
    }
    const number = String(body.account_number);
    if (!/^\d+$/.test(number)) return { status: 400, message: 'account_number must be numeric', data: null };
    const name = this.holders.get(`${String(body.account_bank)}/${number}`);
    if (!name) return { status: 400, message: FLW_RESOLVE_NOT_FOUND, data: null };
    return { status: 200, message: 'Account details fetched', data: { account_number: number, account_name: name } };
  }
}
