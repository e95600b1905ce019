/**
 * The beneficiary name check's rule (CONTRACT §6b), pure. Both names are normalised the same way:
 *   1. Unicode NFKD, then combining marks removed (accents: "Zoë Adébáyọ̀" → "Zoe Adebayo");
 *   2. case-folded (lower case);
 *   3. every character that is not a letter or a digit becomes a space (hyphens, apostrophes, dots, commas:
 *      "Jean-Paul" → "jean paul", "O'Brien" → "o brien");
 *   4. split on spaces into words; a word listed twice counts once.
 * The names match when their word sets are equal, or when one set is the other less exactly one word (a missing
 * middle name) and still has two words or more. Order does not matter ("NWOSU Chinedu" is "Chinedu Nwosu").
 * A lone first name never matches a full name; neither do initials ("C. Nwosu" is not "Chinedu Nwosu").
 */
export function nameWords(name: string): Set<string> {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return new Set(plain.split(' ').filter(Boolean));
}

/** Whether a name the merchant gave and the name the provider resolved are the same person's by the rule above. */
export function namesMatch(given: string, resolved: string): boolean {
  const a = nameWords(given);
  const b = nameWords(resolved);
  if (a.size === 0 || b.size === 0) return false;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const word of small) if (!large.has(word)) return false;
  if (small.size === large.size) return true;
  return large.size - small.size === 1 && small.size >= 2;
}
