// The sheet's `Issuer Registry Info` is free text ("Singapore private company limited by shares
// (Pte. Ltd.) registered under UEN 202418060H; …"). What it states plainly is read from it: the
// domicile where every place it names lies in one country (a text naming two countries, e.g. a
// Cayman fund and its Bermuda manager, gives none), the first register number with its label, the
// regulator where the text says the issuer is regulated, supervised, registered or licensed by it,
// and the legal name where the text names a company with its legal form. Nothing else is inferred.

/** Places and adjectives → ISO 3166 code. "U.S." alone is not a place (U.S. Treasuries, U.S. SEC). */
const PLACES: [RegExp, string][] = [
  [/\b(Switzerland|Swiss(?! law)|Zug|Z[uü]rich|Neuch[aâ]tel|Geneva|Lugano|CHE-?\d)/i, 'CH'],
  [/\b(Liechtenstein|Vaduz)\b/i, 'LI'],
  [/\b(German(y)?|Berlin|Frankfurt|Munich|Handelsregister)\b/i, 'DE'],
  [/\b(Estonia(n)?|Tallinn)\b/i, 'EE'],
  [/\b(Singapore|ACRA|UEN)\b/i, 'SG'],
  [/\bHong Kong\b/i, 'HK'],
  [/\b(Australia(n)?|ABN|ACN)\b/, 'AU'],
  [/\b(United Kingdom|UK|England|Companies House)\b/, 'GB'],
  [/\b(British Virgin Islands|BVI)\b/, 'VG'],
  [/\bCayman\b/i, 'KY'],
  [/\bBermuda\b/i, 'BM'],
  [/\b(Delaware|California|New York|Wyoming|Nevada)\b/, 'US'],
  [/\(U\.S\.\)|Delaware, U\.S\./, 'US'],
  [/\bPanama\b/i, 'PA'],
  [/\bRwand(a|an)\b/i, 'RW'],
  [/\bBrazil(ian)?\b/i, 'BR'],
  [/\bUruguay\b/i, 'UY'],
  [/\b(United Arab Emirates|UAE|Dubai|DIFC|DAFZA|Abu Dhabi|ADGM)\b/, 'AE'],
  [/\bJersey\b/, 'JE'],
  [/\bGuernsey\b/, 'GG'],
  [/\bLuxembourg\b/i, 'LU'],
  [/\b(France|French)\b/, 'FR'],
  [/\b(Ireland|Irish)\b/, 'IE'],
  [/\b(Netherlands|Dutch)\b/, 'NL'],
  [/\b(Austria|Austrian)\b/, 'AT'],
  [/\bCyprus\b/, 'CY'],
  [/\bMalta\b/, 'MT'],
  [/\bGibraltar\b/, 'GI'],
  [/\bBahamas\b/, 'BS'],
  [/\bSeychelles\b/, 'SC'],
  [/\bMarshall Islands\b/, 'MH'],
  [/\bJapan(ese)?\b/, 'JP'],
  [/\b(Korea|Korean)\b/, 'KR'],
  [/\bThailand\b/, 'TH'],
  [/\bCanad(a|ian)\b/, 'CA'],
];

/** Register numbers as the text labels them (first found wins, label kept). */
const REGISTER_NUMBER: RegExp[] = [
  /\b(UEN) ([0-9]{8,9}[A-Z])\b/,
  /\b(ACN) ([0-9]{3} [0-9]{3} [0-9]{3})\b/,
  /\b(ABN) ([0-9]{2} [0-9]{3} [0-9]{3} [0-9]{3})\b/,
  /\b(HRB) ([0-9]+)\b/,
  /\b(CHE)-?([0-9]{3}\.[0-9]{3}\.[0-9]{3})\b/,
  /\b(FL)-([0-9]{4}\.[0-9]{3}\.[0-9]{3}-[0-9])\b/,
  /\b(company (?:no\.|number)) ([0-9]{5,10})\b/i,
  /\b(registry code) ([0-9]{6,10})\b/i,
  /\b(Company ID) ([0-9]{5,10})\b/,
  /\b(CNPJ) ([0-9./-]{14,20}[0-9])/,
  /\b(registered number) ([0-9]{3,10})\b/,
];

/** Regulators the text may name as the issuer's. */
const REGULATORS: [RegExp, string][] = [
  [/Bermuda Monetary Authority/, 'Bermuda Monetary Authority'],
  [/BVI Financial Services Commission/, 'BVI Financial Services Commission'],
  [/\bFINMA\b/, 'FINMA'],
  [/Jersey Financial Services Commission|\bJFSC\b/, 'Jersey Financial Services Commission'],
  [/Monetary Authority of Singapore|\bMAS\b/, 'Monetary Authority of Singapore'],
  [/\bFMA\b/, 'Financial Market Authority Liechtenstein (FMA)'],
  [/\bBaFin\b/, 'BaFin'],
  [/\bCSSF\b/, 'CSSF'],
  [/Financial Conduct Authority|\bFCA\b/, 'Financial Conduct Authority'],
  [
    /U\.S\. SEC as an open-end management investment company/,
    'U.S. SEC (registered investment company)',
  ],
];
const REGULATED_BY =
  /(regulated|supervised|licensed|registered)( as [^;,.]{0,60})? (by|with) (the )?$/i;

/** A legal name is capitalised words before its legal form ("operated by X Ltd" is not one). */
const properName = (name: string) =>
  name
    .split(' ')
    .every((w) => /^[A-Z0-9&(]/.test(w) || ['of', 'and', 'for', 'the', 'de', 'du'].includes(w)) &&
  !/^(Pty|Pte|Ltd|Limited|LLC|AG|GmbH|SA|S\.A\.)\b/.test(name);

const LEGAL_FORM =
  /\b([A-Z][A-Za-z0-9&'’.\- ]{1,60}? (?:Limited|Ltd\.?|LLC|L\.P\.|LP|Inc\.|AG|GmbH|S\.A\.|SA|SAS|Pte\. Ltd\.|PTE\. LTD\.|PTY LTD|Pty Ltd|PRIVATE LIMITED|SPC Limited|FZCO|Corp\.))(?=[\s,;:)–—-]|$)/;

export interface RegistryFacts {
  legal_name: string | null;
  domicile: string | null;
  /** Every country the text names, when more than one (then the domicile is left unknown). */
  countries: string[];
  register_number: string | null;
  regulator: string | null;
}

export function readRegistryText(text: string | null): RegistryFacts {
  if (!text)
    return {
      legal_name: null,
      domicile: null,
      countries: [],
      register_number: null,
      regulator: null,
    };
  const countries = [...new Set(PLACES.filter(([p]) => p.test(text)).map(([, c]) => c))];
  const number = REGISTER_NUMBER.map((p) => p.exec(text)).find((m) => m);
  const regulator =
    REGULATORS.find(([p]) => {
      const m = p.exec(text);
      return m && REGULATED_BY.test(text.slice(Math.max(0, m.index - 80), m.index));
    })?.[1] ?? null;
  return {
    legal_name: [LEGAL_FORM.exec(text)?.[1]?.trim()].find((n) => n && properName(n)) ?? null,
    domicile: countries.length === 1 ? countries[0]! : null,
    countries: countries.length > 1 ? countries : [],
    register_number: number ? `${number[1]} ${number[2]}` : null,
    regulator,
  };
}
