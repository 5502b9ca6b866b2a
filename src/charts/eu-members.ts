// The 27 EU member states: ISO 3166-1 alpha-2 (as the API uses it; Greece is GR, not EL) and the
// ISO 3166-1 numeric code that Natural Earth / world-atlas key their boundaries by.
export const EU_NUMERIC_TO_ALPHA2: Readonly<Record<string, string>> = {
  '040': 'AT',
  '056': 'BE',
  '100': 'BG',
  '191': 'HR',
  '196': 'CY',
  '203': 'CZ',
  '208': 'DK',
  '233': 'EE',
  '246': 'FI',
  '250': 'FR',
  '276': 'DE',
  '300': 'GR',
  '348': 'HU',
  '372': 'IE',
  '380': 'IT',
  '428': 'LV',
  '440': 'LT',
  '442': 'LU',
  '470': 'MT',
  '528': 'NL',
  '616': 'PL',
  '620': 'PT',
  '642': 'RO',
  '703': 'SK',
  '705': 'SI',
  '724': 'ES',
  '752': 'SE',
};

export const EU_ALPHA2: readonly string[] = Object.values(EU_NUMERIC_TO_ALPHA2).sort();
