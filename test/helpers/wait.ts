/**
 * Waits, boundedly, for a condition that background work (a job, another instance)
 * makes true. Returns whether it became true; callers assert on that.
 */
export async function eventually(check: () => Promise<boolean>, { attempts = 150, everyMs = 50 } = {}): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}
