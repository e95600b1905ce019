import path from 'node:path';
import ts from 'typescript';
import {
  isCollection,
  isFunding,
  isPayment,
  isPayout,
  isRefund,
  isTransfer,
  type Transaction,
  type TransactionOfType,
  type TransactionType,
} from '../../sdk/src';

/** A record of one kind, with the fields a test names (the others do not matter at run time). */
const record = <K extends TransactionType>(type: K, fields: Partial<TransactionOfType<K>> = {}) => ({ type, ...fields }) as TransactionOfType<K>;

/**
 * Reads a field only one kind has, after its guard: compiles only because each guard narrows the union
 * (the test below has the compiler check this file, and the same reads without the guards).
 */
function describeTransaction(t: Transaction): string {
  if (isCollection(t)) return `collection ${t.amount} ${t.currency} into ${t.bankInfo?.accountNumber ?? 'a wallet'}`;
  if (isTransfer(t)) return `transfer ${t.destination_amount} ${t.destination_currency} to ${t.beneficiary.account_name}`;
  if (isPayment(t)) return `payment by ${t.payment_method} ending ${t.card?.last4}, ${t.amount_refunded} refunded`;
  if (isRefund(t)) return `refund of ${t.payment_reference}`;
  if (isPayout(t)) return `payout ${t.external_reference}`;
  if (isFunding(t)) return `funding into ${t.bankInfo?.accountNumber}`;
  // Every kind is handled above: t is never here.
  const unknownKind: never = t;
  return unknownKind;
}

/** The SDK's transaction type guards (sdk/src/transactions.ts). */
describe('SDK transaction type guards', () => {
  const samples = {
    collection: record('collection', { amount: 1500, currency: 'KES', bankInfo: undefined }),
    transfer: record('transfer', {
      destination_amount: 12_800,
      destination_currency: 'KES',
      beneficiary: { account_name: 'Jane Wanjiru', account_number: '0123456789', network_id: 'ke_kcb' },
    }),
    payment: record('payment', { payment_method: 'card', card: { brand: 'visa', last4: '4242', fingerprint: null }, amount_refunded: 300 }),
    refund: record('refund', { payment_reference: 'pay_1' }),
    payout: record('payout', { external_reference: 'po_1' }),
    funding: record('funding', { bankInfo: { accountName: 'Acme', accountNumber: '9912345678', bankName: 'Sandbox Bank', bankCode: 'SBX', localCode: null } }),
  } satisfies { [K in TransactionType]: TransactionOfType<K> };
  const guards = { collection: isCollection, transfer: isTransfer, payment: isPayment, refund: isRefund, payout: isPayout, funding: isFunding };

  it('each guard is true for its own kind only', () => {
    for (const [kind, guard] of Object.entries(guards)) {
      const matches = Object.entries(samples)
        .filter(([, t]) => guard(t))
        .map(([k]) => k);
      expect([kind, matches]).toEqual([kind, [kind]]);
    }
  });

  it('after a guard, the kind’s own fields are there to read', () => {
    expect(Object.values(samples).map(describeTransaction)).toEqual([
      'collection 1500 KES into a wallet',
      'transfer 12800 KES to Jane Wanjiru',
      'payment by card ending 4242, 300 refunded',
      'refund of pay_1',
      'payout po_1',
      'funding into 9912345678',
    ]);
  });

  it('narrows the union under the compiler: this file compiles, and the same reads without a guard do not', () => {
    const unguarded = path.join(__dirname, 'unguarded-reads.ts');
    const source = [
      "import type { Transaction } from '../../sdk/src';",
      'export const reads = (t: Transaction) => [t.bankInfo, t.beneficiary, t.card, t.payment_reference];',
    ].join('\n');
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      esModuleInterop: true,
      types: ['node', 'jest'],
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (name, ...rest) => (name === unguarded ? ts.createSourceFile(name, source, ts.ScriptTarget.ES2022) : getSourceFile(name, ...rest));
    host.fileExists = (name) => name === unguarded || fileExists(name);
    host.readFile = (name) => (name === unguarded ? source : readFile(name));
    const program = ts.createProgram([__filename, unguarded], options, host);
    const errors = (file: string) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ').split(' on type')[0]}`);

    expect(errors(__filename)).toEqual([]);
    expect(errors(unguarded)).toEqual([
      "TS2339 Property 'bankInfo' does not exist",
      "TS2339 Property 'beneficiary' does not exist",
      "TS2339 Property 'card' does not exist",
      "TS2339 Property 'payment_reference' does not exist",
    ]);
  });
});
