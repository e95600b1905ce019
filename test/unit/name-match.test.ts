import { nameWords, namesMatch } from '../../src/modules/payees/name-match';

/** CONTRACT §6b: the beneficiary name check's rule. */
describe('namesMatch', () => {
  it.each([
    ['Chinedu Nwosu', 'Chinedu Nwosu'],
    ['chinedu nwosu', 'CHINEDU NWOSU'],
    ['NWOSU Chinedu', 'Chinedu Nwosu'],
    ['Chinedu Nwosu', 'NWOSU, CHINEDU EMEKA'],
    ['Chinedu Emeka Nwosu', 'Chinedu Nwosu'],
    ['Zoe Adebayo', 'Zoë Adébáyọ̀'],
    ['Jean Paul Mbemba', 'Jean-Paul Mbemba'],
    ["Sean O'Brien", 'Sean O Brien'],
    ['  Amina   Bello ', 'Amina Bello.'],
    ['Madonna', 'MADONNA'],
    ['Amina Bello Bello', 'Amina Bello'],
  ])('%j matches %j', (given, resolved) => {
    expect(namesMatch(given, resolved)).toBe(true);
    expect(namesMatch(resolved, given)).toBe(true);
  });

  it.each([
    ['Chinedu', 'Chinedu Nwosu'],
    ['C. Nwosu', 'Chinedu Nwosu'],
    ['Chinedu Okafor', 'Chinedu Nwosu'],
    ['Chinedu Nwosu', 'Chinedu Emeka Obi Nwosu'],
    ['Adaeze Okafor', 'Pastor Bright'],
    ['', 'Chinedu Nwosu'],
    ['---', '...'],
    ['Amina Bello', 'Aminata Bello'],
  ])('%j does not match %j', (given, resolved) => {
    expect(namesMatch(given, resolved)).toBe(false);
    expect(namesMatch(resolved, given)).toBe(false);
  });

  it('normalises to case-folded words without accents or punctuation', () => {
    expect([...nameWords("Zoë  Adébáyọ̀-O'Neil, Jr.")]).toEqual(['zoe', 'adebayo', 'o', 'neil', 'jr']);
  });
});
