/**
 * The MTN MoMo fake's account-holder check, GET /{collection|disbursement}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo,
 * kept apart from mtn-momo.fake.ts.
 *
 * SOURCES: MTN's own Android SDK docs (MTN-Group/MoMoAPIs_Android_sdk docs/collection/getBasicUserInfo.md: the path
 * `{product}/v1_0/accountholder/msisdn/{accountHolderMSISDN}/basicuserinfo`, "returns personal information of the
 * account holder. The operation does not need any consent by the account holder", and the sample answer `{sub: "0",
 * name: "Sand Box", given_name: "Sand", family_name: "Box", birthdate: "1976-08-13", locale: "sv_SE", gender: "MALE",
 * updated_at: 1676609351}`); MTN's Open API lists it as a GET in both products (the SDK doc's text says POST; the path
 * takes no body, and the Open API's GET is what this fake answers).
 * CHOSEN: a number a test seeded answers its name; one ending in 0004 (this fake's *_NOT_FOUND convention) → 404
 * RESOURCE_NOT_FOUND; any other valid MSISDN answers the documented sandbox sample ("Sand Box"). The same checks as
 * every call (subscription key, the product's Bearer, X-Target-Environment) come first.
 */
export class MtnAccountHolders {
  private readonly holders = new Map<string, { given: string; family: string }>();

  /** A test's own wallet holder. */
  add(msisdn: string, givenName: string, familyName: string): void {
    this.holders.set(msisdn, { given: givenName, family: familyName });
  }

  /** The basicuserinfo body for a valid MSISDN; null: no such wallet (404). */
  basicUserInfo(msisdn: string): Record<string, unknown> | null {
    if (msisdn.endsWith('0004')) return null;
    const holder = this.holders.get(msisdn) ?? { given: 'Sand', family: 'Box' };
    return {
      sub: '0',
      name: `${holder.given} ${holder.family}`,
      given_name: holder.given,
      family_name: holder.family,
      birthdate: '1976-08-13',
      locale: 'sv_SE',
      gender: 'MALE',
      updated_at: 1676609351,
    };
  }
}
