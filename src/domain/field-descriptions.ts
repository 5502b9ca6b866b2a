// What each field of the published schemas means (schemas/, /openapi.json): its unit, which date
// it is, and what null means. Descriptions beside the shapes (`.describe()` in src/domain) would be
// the ideal, and one written there stays the source for its field; these are kept in one module
// and applied where the schemas are generated (src/domain/schema-descriptions.ts) so that the
// shapes' files stay the single source of shapes, edited by many hands at once.
//
// Keys: `<owner>#<path>`. The owner is a data-file schema by its file below schemas/
// (`data/venues.schema.json`) or a response shape by its zod `meta` id, which is both its OpenAPI
// component and its `$defs` entry in schemas/v1 (`StablecoinsResponse`). The path walks
// `/properties/<name>`, `/items` and `/additionalProperties`; a nullable wrapper adds no step.
// `npm run schemas -- --undescribed` lists every property still without a description, by key;
// test/unit/field-descriptions.test.ts fails on one, and on a key that names no property.

/** By the tail of a property's path, or its name alone: only where the meaning is the same everywhere. */
export const SHARED_DESCRIPTIONS: Record<string, string> = {
  // A source of a record (src/domain/common.ts `source`).
  'sources/items/properties/id':
    "The source's id within this record; fields name it in their `source`.",
  'sources/items/properties/kind':
    'What the source is: issuer, prospectus, regulatory_filing, regulator_register, regulator_publication, regulation, csd_or_registrar, transfer_agent, attestation, venue_notice, explorer, data_aggregator (primary sources), or news (only where it is the only public record; `secondary_reason` says so).',
  'sources/items/properties/title': 'The title of the page or document as published.',
  'sources/items/properties/url': 'Where the source is published (http or https).',
  'sources/items/properties/published':
    'The publication date the source states (its own date, not the date it was read); null when it states none.',
  sources:
    'The sources the facts were read from: each with its id, kind, title, publisher, URL, access date and publication date.',
  publisher: 'Who publishes the source (the issuer, regulator, registrar or aggregator).',
  accessed: 'The access date: the day the source was last read.',
  secondary_reason:
    'Present only for a news source: why it stands for a figure (it is the only public record of it).',
  provenance:
    'What the importer recorded about the file it read: its URL, name, date, hash, row count and the import date.',
  // importProvenance (common.ts): the file an importer read.
  source_url: 'The URL of the file the importer read.',
  file_name: "The file's name as published; null when the download names none.",
  file_date:
    "The date in the file or its name (the publisher's version date); null when it has none.",
  last_modified: "The file's Last-Modified header as served; null when the server sent none.",
  sha256: 'SHA-256 of the bytes read (hex): identifies the exact file version.',
  rows: 'Rows read from the file.',
  imported: 'The date the file was imported.',
  // factOrigin (common.ts): where one imported fact was read.
  origin:
    "Where an importer read the value: the source (an id of the record's `sources`) and, for a file in a public repository, its repository, path, line and commit. Absent for a value written by an editor from its `source`.",
  lei_origin: 'Where the LEI was read (source id and, for a file in a repository, its location).',
  isin_origin: 'Where the ISIN was read (source id and, for a file in a repository, its location).',
  cusip_origin:
    'Where the CUSIP was read (source id and, for a file in a repository, its location).',
  dti_origin: 'Where the DTI was read (source id and, for a file in a repository, its location).',
  'origin/properties/source': "The id of the record's source the value was read from.",
  repository: 'The public repository (owner/name) holding the file the value was read from.',
  path: 'The path of that file in the repository.',
  line: 'The line of that file holding the value.',
  commit: 'The commit (40 hex) of the repository that was read.',
  // A figure's history (common.ts historyPoint).
  'history/items/properties/value': 'The earlier value, in the same unit as the figure.',
  'history/items/properties/as_of': 'The date the earlier value is of.',
  'history/items/properties/source': "The id of the record's source of the earlier value.",
  // Latency percentiles (api-status.ts).
  p50_ms: 'Median latency in milliseconds; null when no request was answered in the window.',
  p90_ms:
    '90th percentile latency in milliseconds; null when no request was answered in the window.',
  p95_ms:
    '95th percentile latency in milliseconds; null when no request was answered in the window.',
  p99_ms:
    '99th percentile latency in milliseconds; null when no request was answered in the window.',
  // Meta of every answer (api.ts meta).
  api_version: 'The API version of the path (`v1`).',
  registry_standard: 'The registry data standard the records follow (version and publication).',
  'registry_standard/properties/version': 'The version of the registry data standard.',
  'registry_standard/properties/published': 'When that version of the standard was published.',
  methodology: 'The methodology audit standard the scores follow (GTDS), its version and page.',
  'methodology/properties/standard': 'The methodology standard: GTDS.',
  'methodology/properties/version': 'The version of the methodology standard.',
  'methodology/properties/url': 'The page that explains the methodology.',
  query: 'The query parameters applied, as normalised (name to value).',
  // A dated date with an event (key dates of a MiCA category or a jurisdiction).
  'key_dates/items/properties/date': 'The date of the event.',
  'key_dates/items/properties/event': 'What happens or happened on that date.',
  key_dates: 'Dates of the regime: entry into force, application, end of transition, and the like.',
  // The custody codes (codes.ts custody table; the asset record's custody).
  'custody/properties/custodian':
    'The firm holding the underlying assets, as the sources name it; null when no custodian is named.',
  'custody/properties/transfer_agent':
    'The transfer agent or registrar keeping the register of holders; null when none is named.',
  'custody/properties/model':
    'Custody model code (data/codes/custody.yaml `custody_model`), e.g. qualified_custodian.',
  'custody/properties/segregation':
    'How the assets are segregated (code of data/codes/custody.yaml `segregation`).',
  'custody/properties/custodian_status':
    "The custodian's regulatory status (code of data/codes/custody.yaml `custodian_status`).",
  'custody/properties/register':
    'Who keeps the register of ownership (code of data/codes/custody.yaml `register`).',
  // A venue (market.ts venue): in data/venues.yaml and in the stablecoins answer.
  'venues/items/properties/id': "The venue's id (kebab-case), as `listed_on` names it.",
  'venues/items/properties/name': 'The venue as it names itself.',
  'venues/items/properties/operating_entity': 'The legal entity operating the venue.',
  'venues/items/properties/type':
    'What the venue is: centralised_exchange, broker_dealer, otc_desk, mtf, dlt_trading_settlement_system or prime_broker.',
  'venues/items/properties/headquarters':
    "Country of the operating entity's headquarters (ISO 3166-1 alpha-2); null with a reason when no source names it.",
  'venues/items/properties/headquarters_null_reason':
    'Why `headquarters` is null; null when it is given.',
  'venues/items/properties/mica_casp':
    "The venue's MiCA crypto-asset service provider authorisation, as ESMA's interim register or the authority states it.",
  'mica_casp/properties/authorised':
    'True when the operating entity is an authorised CASP under MiCA; false when it is not; null when no source settles it (the reason says why).',
  'mica_casp/properties/authorised_null_reason': 'Why `authorised` is null; null when it is known.',
  'mica_casp/properties/member_state':
    'The home member state of the authorisation (ISO 3166-1 alpha-2); null when not authorised or not stated.',
  'mica_casp/properties/authority':
    'The competent authority that granted the authorisation; null when not authorised or not stated.',
  'mica_casp/properties/date':
    'The authorisation date of the firm as a CASP (from the register); null with a reason when not authorised or not dated.',
  'mica_casp/properties/date_null_reason': 'Why `date` is null; null when a date is given.',
  'mica_casp/properties/source':
    "The id of the venue's source for the authorisation (normally ESMA's register); null when there is none.",
  'venues/items/properties/stablecoins_listed':
    'Ids of the stablecoins (data/stablecoins) the venue lists, per its own listings.',
  'venues/items/properties/institutional_routes':
    'Institutional access the venue offers: otc, prime, api_direct, custody_settlement.',
  // A MiCA category (mica.ts categoriesFile): in data/mica/categories.yaml and the MiCA answer.
  'categories/items/properties/code': 'The category: EMT, ART, CASP or DLT_PILOT.',
  'categories/items/properties/name': 'The category in words.',
  'categories/items/properties/legal_basis':
    'The articles of MiCA (or the DLT Pilot Regime) that set the category.',
  'categories/items/properties/key_dates':
    'Dates of the category: entry into force, application and transition ends.',
  'categories/items/properties/authorised_entities':
    "How many entities are authorised in the category across the EU, by ESMA's register, with the date of the count.",
  'authorised_entities/properties/count': 'The number counted, as `what` says.',
  'authorised_entities/properties/what': 'What is counted, in words.',
  'authorised_entities/properties/as_of':
    'The date of the count (the register version it was taken from).',
  'authorised_entities/properties/source': "The id of the category's source of the count.",
  'categories/items/properties/status_summary':
    'Where the category stands today, in one or two sentences.',
  // The Art. 143(3) transitional period (mica.ts transitionalPeriodsFile).
  'esma_list/items/properties/version': "The version date of ESMA's list of transitional periods.",
  'esma_list/items/properties/source': 'The id of the source of that version of the list.',
  'notified/properties/months':
    'Months of the transitional period the member state notified to ESMA (0–18); null when ESMA\'s list shows "TBA".',
  'notified/properties/esma_list_version':
    "The version date of ESMA's list the notified months were read from.",
  'national/properties/months':
    'Months of the transitional period under national law (0–18); null when national law sets no period in months (see `end_date`, `condition`).',
  'national/properties/end_date':
    'The last day of the transitional period under national law; null when the law gives none.',
  'national/properties/condition':
    'A condition of the transitional period under national law, e.g. an application deadline; null when none.',
  'national/properties/instrument':
    'The national law or act that sets the period; null when none is known.',
  'national/properties/source':
    "The id of the source of the national facts (in the file's `sources`).",
  // ESMA's interim register (mica-register.ts): the entity fields every register shares.
  'items/properties/home_member_state':
    "The entity's home member state (ISO 3166-1 alpha-2), as ESMA gives it.",
  'items/properties/competent_authority':
    'The national competent authority that authorised it, as ESMA names it.',
  'items/properties/commercial_name': 'The trading name ESMA gives; null when it gives none.',
  // Readiness tiers (data/codes/readiness.yaml).
  'items/properties/min': "The lowest count that earns this tier's points.",
};

/** Descriptions by owner(s) and path; a group lists the owners its paths exist in. */
const ASSET_FILE = 'data/asset-record.schema.json';
const SERIES_FILE = 'data/series-record.schema.json';
const COIN_FILE = 'data/stablecoin-record.schema.json';
const MEMBER_STATE_FILE = 'data/member-state.schema.json';
const RISK_VECTORS = [
  'credit',
  'liquidity',
  'counterparty',
  'smart_contract',
  'regulatory',
  'operational',
];
const READINESS_COMPONENTS: Record<string, string> = {
  competent_authority: 'the competent authorities designated (their short names)',
  national_measures: 'whether national implementing measures are adopted',
  transitional_period_months: 'the transitional period scored, in months (null when unknown)',
  authorised_casps: "the CASPs authorised in the state (ESMA's register)",
  emt_issuers: "the EMT issuers authorised in the state (ESMA's register)",
  dlt_pilot_infrastructures: 'the DLT Pilot Regime market infrastructures in the state',
};

/** What a MiCA authorisation date is (market.ts MICA_DATE_KINDS), in the coin record and the asset profile. */
const DATE_KIND =
  "What `date` is: institution_authorisation (the issuer's authorisation as a credit or e-money institution, which MiCA asks of an e-money-token issuer), white_paper_notification (the notification of the token's white paper to the competent authority), mica_authorisation (an authorisation under MiCA itself: an issuer of asset-referenced tokens or a CASP) or not_stated (ESMA's register gives an authorisation-or-notification date and what it dates is not stated). Given with every date.";

/** One piece of technical (L1) evidence (asset.ts technicalEvidence): under `technical`, and under `history` once replaced. */
const evidenceItem: Record<string, string> = {
  ledger: 'Ledger code of the entry, e.g. ETH.',
  contract_address: 'The contract read; null when the entry has none (e.g. a native issuance).',
  method:
    'How the facts were established: rpc (read from the ledger), explorer, issuer_record or csd_record.',
  source: "The id of the record's source for the evidence; null for a direct ledger read.",
  token_standard: 'The token standard found, when established.',
  supply:
    "The token supply found, in tokens (the contract's decimals applied); absent or null when not read.",
  as_of: 'The date the evidence was established (the read or the record consulted).',
  chain_id: 'EIP-155 chain id the RPC endpoint reported (method rpc only).',
  block_number: 'The block the read was made at (method rpc only).',
  block_time: "That block's timestamp, UTC (method rpc only).",
  name: "The token's name as the contract returns it (method rpc only).",
  symbol: "The token's symbol as the contract returns it (method rpc only).",
  decimals: "The contract's decimals (method rpc only).",
  code: 'Whether the address held contract code at the block read (method rpc only): false means there is no contract to read there, which contradicts the entry.',
  implementation:
    'The EIP-1967 implementation contract behind a proxy at the block read; the calls went through the proxy (method rpc only, absent when the contract is no proxy).',
  record:
    "The issuer's own record of its contracts (a deployment file or token list in a repository it owns, or an address table on its site), when it is not one of the record's sources (method issuer_record only).",
  'record/properties/title': 'The title of that record as published.',
  'record/properties/url': 'Where that record is published (http or https).',
};

/** A record's identity and dates, the same in the asset and series files and the profile. */
const recordCore: Record<string, string> = {
  '/properties/tfin':
    'Tokenized Financial Instrument Number: the registry identifier, TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ>.',
  '/properties/short_name': 'A short name or ticker as the issuer uses it; null when it uses none.',
  '/properties/lifecycle_status':
    'Where the asset is in its life: announced, active, matured, redeemed, suspended or closed.',
  '/properties/dates':
    'The launch date and, for an asset or a programme, its maturity and end dates.',
  '/properties/dates/properties/launch_date':
    'The launch date: the first issuance of the token; null with a reason when no source dates it (operating history then scores as the shortest).',
  '/properties/dates/properties/launch_null_reason':
    'Why `launch_date` is null; null when it is given.',
  '/properties/ledgers/items/properties/ledger': 'Ledger code (data/codes/ledgers.yaml), e.g. ETH.',
  '/properties/ledgers/items/properties/token_standard':
    'The token standard on that ledger, e.g. ERC-20 or ERC-3643; null when no source names it.',
  '/properties/ledgers/items/properties/contract_address':
    'The token contract address or token id on that ledger, exactly as published; null with a reason when none is published.',
  '/properties/ledgers/items/properties/contract_address_null_reason':
    'Why `contract_address` is null; null when it is given.',
  '/properties/validation':
    'How far the record is verified (unverified, L1 on-ledger, L2 documents, L3 registrar confirmation) and the evidence for it.',
  '/properties/validation/properties/level':
    'The validation level its evidence supports: unverified; L1 contract and supply established for each ledger entry (read on the ledger, or a dated explorer, issuer or CSD record); L2 prospectus or regulatory filing; L3 confirmation by the CSD, registrar or transfer agent.',
  '/properties/validation/properties/basis': 'What the level rests on, in words.',
  '/properties/validation/properties/evidence': 'The evidence behind the level, by kind.',
  '/properties/validation/properties/evidence/properties/technical':
    'L1: per ledger entry, the contract, token standard and supply, with how each was established.',
  '/properties/validation/properties/evidence/properties/documents':
    "L2: ids of the record's sources that are the prospectus or regulatory filings read.",
  '/properties/validation/properties/evidence/properties/confirmation':
    "L3: ids of the record's sources that are the CSD, registrar or transfer-agent confirmation.",
  '/properties/validation/properties/evidence/properties/history':
    'Technical evidence that a later ledger read contradicted or replaced (a changed contract code, symbol, decimals or implementation), kept for review: it never counts towards the level.',
  ...Object.fromEntries(
    ['technical', 'history'].flatMap((list) =>
      Object.entries(evidenceItem).map(([name, text]) => [
        `/properties/validation/properties/evidence/properties/${list}/items/properties/${name}`,
        text,
      ]),
    ),
  ),
};

/** Fields of a single asset's or programme's own record and its profile. */
const assetOwn: Record<string, string> = {
  '/properties/amount_null_reason': 'Why `amount` is null; null when an amount is given.',
  '/properties/description':
    "What the asset is, in a few sentences (a series without its own reads '<name>, a series of <programme>').",
  '/properties/dates/properties/maturity_date':
    'The maturity date of the instrument; null with a reason when it has none (e.g. an open-ended fund) or none is published.',
  '/properties/dates/properties/maturity_null_reason':
    'Why `maturity_date` is null; null when it is given.',
  '/properties/dates/properties/end_date':
    'The date a matured, redeemed or closed asset ended (operating history stops there); null or absent while it runs.',
  '/properties/issuer/properties/sponsor':
    'The sponsor or manager behind the issuing vehicle, when it is another firm; null when none is named.',
  '/properties/mica/properties/status':
    'MiCA status code (data/codes/mica-status.yaml), e.g. financial_instrument: how MiCA treats the asset. A classification, not an authorisation.',
  '/properties/mica/properties/rationale': 'Why the asset has that MiCA status, in words.',
  '/properties/minimum_investment':
    'The minimum subscription the issuer states; null with a reason when none is published.',
  '/properties/minimum_investment/properties/value': 'The minimum, in units of `currency`.',
  '/properties/minimum_investment/properties/currency': 'ISO 4217 currency of the minimum.',
  '/properties/minimum_investment_null_reason':
    'Why `minimum_investment` is null; null when it is given.',
  '/properties/settlement': 'How a transfer of the token settles.',
  '/properties/settlement/properties/mechanism':
    'Settlement mechanism: onchain_dvp_atomic, onchain_stablecoin, onchain_token_offchain_cash, csd_dvp or bank_ledger_internal.',
  '/properties/settlement/properties/cash_leg':
    'How the cash side of a subscription or redemption is paid.',
  '/properties/settlement/properties/finality': 'When a transfer is final, in words.',
};

/** An amount of an asset (asset.ts assetAmount) as written and as served. */
const amountFields: Record<string, string> = {
  '/properties/amount':
    'The size of the asset: assets under management, amount outstanding or amount issued, dated and sourced; null with a reason when no source states it.',
  '/properties/amount/properties/kind':
    'Which amount: aum (assets under management), outstanding (amount outstanding) or issued (amount issued).',
  '/properties/amount/properties/value': 'The amount, in units of `currency`.',
  '/properties/amount/properties/currency': 'ISO 4217 currency of the amount.',
  '/properties/amount/properties/as_of':
    'The as-of date of the amount: the date the source states it for.',
  '/properties/amount/properties/source': "The id of the record's source of the amount.",
};

/** Issuer, custody and stablecoin fields whose path is the same in the file and the answer. */
const coinRecord: Record<string, string> = {
  '/properties/id': "The coin's id (kebab-case): its file name and its key in the API.",
  '/properties/symbol': 'The ticker as published, e.g. USDC.',
  '/properties/name': 'The coin as its issuer names it.',
  '/properties/as_of':
    'The date the record was written or last reviewed against its sources (each figure carries its own as-of date).',
  '/properties/status':
    'Whether the coin still works as a stablecoin: live, depegged, wound_down or inactive, with its date and source.',
  '/properties/status/properties/value':
    'live; depegged (lost its peg); wound_down (the issuer stopped issuing and redeeming); inactive (the aggregator lists it as dead, delisted or deprecated without saying why). Coins not live are shown and left out of totals and shares.',
  '/properties/status/properties/since':
    'The date the status began; null for a live coin or, with a reason, when no source dates it.',
  '/properties/status/properties/since_null_reason': 'Why `since` is null; null when it is given.',
  '/properties/status/properties/basis':
    'What is known about the status, in words: who says so and what the date means.',
  '/properties/status/properties/source': "The id of the record's source for the status.",
  '/properties/dti':
    "Digital Token Identifier (ISO 24165): the functionally fungible group's DTI where the register gives one, else the token's only DTI; null or absent with a reason when none is known.",
  '/properties/dti_null_reason': 'Why `dti` is null; null when it is given.',
  '/properties/ledger_dtis': 'The per-ledger DTIs the register lists.',
  '/properties/ledger_dtis/items/properties/dti':
    'The DTI of the token on one ledger (ISO 24165, 9 characters).',
  '/properties/ledger_dtis/items/properties/ledger':
    'Ledger code of that token; null when the register names no ledger we hold.',
  '/properties/ledger_dtis/items/properties/ledger_name':
    'The ledger as the register names it; null when it names none.',
  '/properties/isin':
    'ISIN (ISO 6166), where a numbering agency has given the token one; null with a reason otherwise.',
  '/properties/isin_null_reason': 'Why `isin` is null; null when it is given.',
  '/properties/aggregator_ids':
    "The coin's ids at the aggregators the importers read: matching keys, not identifiers of the token.",
  '/properties/aggregator_ids/properties/defillama':
    "The coin's id at DefiLlama; null when it has none.",
  '/properties/aggregator_ids/properties/coingecko':
    "The coin's id at CoinGecko; null when it has none.",
  '/properties/issuer': 'Who issues the coin.',
  '/properties/issuer/properties/name': 'The issuer as commonly named.',
  '/properties/issuer/properties/issuing_entity': 'The legal entity that issues the coin.',
  '/properties/issuer/properties/issuing_entity_null_reason':
    'Why `issuing_entity` is null (no source names the legal entity); null when it is given.',
  '/properties/issuer/properties/lei':
    "The issuing entity's Legal Entity Identifier (ISO 17442); null with a reason when it has none or none is published.",
  '/properties/issuer/properties/lei_null_reason': 'Why `lei` is null; null when it is given.',
  '/properties/issuer/properties/jurisdiction':
    "The issuing entity's domicile (ISO 3166-1 alpha-2); null with a reason when no source names it.",
  '/properties/issuer/properties/jurisdiction_null_reason':
    'Why `jurisdiction` is null; null when it is given.',
  '/properties/issuer/properties/website': "The issuer's website.",
  '/properties/issuer/properties/lei_origin/properties/source':
    "The id of the record's source the LEI was read from.",
  '/properties/dti_origin/properties/source':
    "The id of the record's source the DTI was read from.",
  '/properties/isin_origin/properties/source':
    "The id of the record's source the ISIN was read from.",
  '/properties/peg_currency': 'The currency the coin is pegged to (ISO 4217), e.g. USD or EUR.',
  '/properties/backing':
    'How the peg is held: specific reserve kinds where the issuer states them (fiat_cash_and_treasuries, fiat_cash_and_deposits), else the broad mechanism (fiat_reserves, crypto_overcollateralised, crypto_backed, synthetic_delta_neutral, algorithmic, mixed_reserves).',
  '/properties/ledgers':
    'Codes of the ledgers the coin is issued or bridged on; empty only with `ledgers_null_reason`.',
  '/properties/ledgers_null_reason': 'Why `ledgers` is empty; null when it lists ledgers.',
  '/properties/deployments':
    'Per-ledger token contracts: issued (minted there by the issuer or its protocol) or bridged (a representation of tokens locked or burned elsewhere).',
  '/properties/deployments/items/properties/ledger': 'Ledger code, e.g. ETH.',
  '/properties/deployments/items/properties/kind':
    'issued (minted on this ledger) or bridged (from `bridged_from`).',
  '/properties/deployments/items/properties/bridged_from':
    'For a bridged token, the ledger code it is bridged from; null or absent otherwise.',
  '/properties/deployments/items/properties/contract_address':
    'The token contract or token id, exactly as published; null with a reason when none is published.',
  '/properties/deployments/items/properties/contract_address_null_reason':
    'Why `contract_address` is null; null when it is given.',
  '/properties/deployments/items/properties/supply':
    "totalSupply read from the ledger at one block: every token the contract counts, including the issuer's own holdings and bridge escrows, so never added to circulating figures.",
  '/properties/deployments/items/properties/supply/properties/kind': 'Always total_supply.',
  '/properties/deployments/items/properties/supply/properties/value':
    'The total supply in tokens (decimals applied).',
  '/properties/deployments/items/properties/supply/properties/as_of': 'The date of the read.',
  '/properties/deployments/items/properties/supply/properties/chain_id':
    'EIP-155 chain id the RPC endpoint reported.',
  '/properties/deployments/items/properties/supply/properties/block_number':
    'The block the supply was read at.',
  '/properties/deployments/items/properties/supply/properties/block_time':
    "That block's timestamp, UTC.",
  '/properties/deployments/items/properties/supply/properties/decimals': "The contract's decimals.",
  '/properties/mica':
    "The coin's standing under MiCA: classification, white paper, the issuer's authorisation and EU venue restrictions.",
  '/properties/mica/properties/classification':
    'emt (e-money token), art (asset-referenced token) or not_a_mica_token; null with a reason when no source settles it. A classification is not an authorisation.',
  '/properties/mica/properties/classification_null_reason':
    'Why `classification` is null; null when it is given.',
  '/properties/mica/properties/classification_rationale':
    'Why the coin has that classification, in words.',
  '/properties/mica/properties/white_paper':
    "The coin's EMT white paper in ESMA's register; null or absent when none is registered.",
  '/properties/mica/properties/white_paper/properties/url':
    'Where the white paper is published; null with a reason when ESMA gives no URL.',
  '/properties/mica/properties/white_paper/properties/url_null_reason':
    'Why `url` is null; null when it is given.',
  '/properties/mica/properties/white_paper/properties/notified':
    'The notification date of the white paper to the competent authority, as the register gives it; null when it gives none.',
  '/properties/mica/properties/white_paper/properties/last_update':
    "The date ESMA's register last updated the entry; null when it gives none.",
  '/properties/mica/properties/white_paper/properties/source':
    "The id of the record's source for the white paper (ESMA's register).",
  '/properties/mica/properties/authorisation':
    "The issuer's authorisation under MiCA to issue the coin in the EU.",
  '/properties/mica/properties/authorisation/properties/status':
    'authorised (the issuer holds a MiCA authorisation, per the register), pending or not_authorised.',
  '/properties/mica/properties/authorisation/properties/institution_type':
    'The kind of authorised issuer: electronic_money_institution or credit_institution; null when not authorised or not stated.',
  '/properties/mica/properties/authorisation/properties/home_member_state':
    "The authorised firm's home member state (ISO 3166-1 alpha-2); null when not authorised.",
  '/properties/mica/properties/authorisation/properties/competent_authority':
    'The national competent authority that authorised the firm; null when not authorised.',
  '/properties/mica/properties/authorisation/properties/date':
    "The authorisation date of the issuing firm (its licence as an e-money or credit institution under MiCA, as the register gives it) — not the white paper's notification date. Null with a reason when not authorised or the register gives no date.",
  '/properties/mica/properties/authorisation/properties/date_null_reason':
    'Why `date` is null; null when it is given.',
  '/properties/mica/properties/authorisation/properties/institution_type_null_reason':
    "Why an authorised issuer's `institution_type` is not given (the register states none); null when it is given or the issuer is not authorised.",
  '/properties/mica/properties/authorisation/properties/date_kind': `${DATE_KIND} Null or absent when there is no date.`,
  '/properties/mica/properties/authorisation/properties/register_source':
    "The id of the record's source for the authorisation (the register entry); null when there is none.",
  '/properties/mica/properties/eu_venue_restrictions':
    'Venues that delisted or restricted the coin for EU/EEA users on MiCA grounds; empty when none is known.',
  '/properties/mica/properties/eu_venue_restrictions/items/properties/venue': 'The venue, by name.',
  '/properties/mica/properties/eu_venue_restrictions/items/properties/action':
    'What the venue did: delisted, restricted or not_listed_for_eea.',
  '/properties/mica/properties/eu_venue_restrictions/items/properties/date':
    'The date the restriction took effect, per the venue.',
  '/properties/mica/properties/eu_venue_restrictions/items/properties/source':
    "The id of the record's source (the venue's notice).",
  '/properties/reserve_attestation':
    "The issuer's reserve attestations: who attests, how often, under which standard, the latest report.",
  '/properties/reserve_attestation/properties/attestor':
    'The firm that attests the reserves; null with a reason when none is named.',
  '/properties/reserve_attestation/properties/attestor_null_reason':
    'Why `attestor` is null; null when it is given.',
  '/properties/reserve_attestation/properties/frequency':
    'How often attestations are published: daily, weekly, monthly, quarterly or none_published; null with a reason when not known.',
  '/properties/reserve_attestation/properties/frequency_null_reason':
    'Why `frequency` is null; null when it is given.',
  '/properties/reserve_attestation/properties/standard':
    'The assurance standard the reports name, e.g. AICPA attestation standards; null with a reason when none is named.',
  '/properties/reserve_attestation/properties/standard_null_reason':
    'Why `standard` is null; null when it is given.',
  '/properties/reserve_attestation/properties/latest_report_date':
    'The date of the latest attestation report, as the report is dated; null with a reason when no dated report is held.',
  '/properties/reserve_attestation/properties/latest_report_date_null_reason':
    'Why `latest_report_date` is null; null when it is given.',
  '/properties/reserve_attestation/properties/reserve_composition':
    'What the reserves hold, as the latest report states; null with a reason when not stated.',
  '/properties/reserve_attestation/properties/reserve_composition_null_reason':
    'Why `reserve_composition` is null; null when it is given.',
  '/properties/reserve_attestation/properties/source':
    "The id of the record's source of the attestation facts; null when none is known.",
  '/properties/issuer_wallets/items/properties/address':
    'The wallet address on that ledger, exactly as the contract list publishes it.',
  '/properties/ledger_circulating_supply/properties/kind':
    'Always ledger_sum: summed from ledger reads, not stated by a source.',
  '/properties/ledger_circulating_supply/properties/reads/items/properties/issuer_held':
    "The issuer's own wallets on this ledger (`issuer_wallets`) and their balances of this contract at the same block, subtracted from its total supply; empty when none is listed.",
  '/properties/ledger_circulating_supply/properties/reads/items/properties/issuer_held/items/properties/address':
    'The wallet address.',
  '/properties/ledger_circulating_supply/properties/reads/items/properties/issuer_held/items/properties/balance':
    "The wallet's balance of the contract at the block read, in tokens (decimals applied).",
  '/properties/ledger_circulating_supply/properties/not_read/items/properties/ledger':
    'Ledger code of the issued deployment not read.',
  '/properties/ledger_circulating_supply/properties/not_read/items/properties/contract_address':
    'Its contract; null when none is published.',
};
for (const figure of ['market_cap', 'circulating_supply'] as const) {
  const f = `/properties/${figure}`;
  const unit =
    figure === 'market_cap'
      ? 'in units of the peg currency (or `currency` when given)'
      : 'in tokens, as the source defines circulation';
  Object.assign(coinRecord, {
    [f]:
      figure === 'market_cap'
        ? 'The market capitalisation: a value in the peg currency, dated and sourced; without a value it has no date and no source.'
        : 'The circulating supply: tokens in circulation as the source defines them, dated and sourced; without a value it has no date and no source.',
    [`${f}/properties/value`]: `The figure, ${unit}; null with a reason when no figure is known.`,
    [`${f}/properties/value_null_reason`]: 'Why `value` is null; null when a figure is given.',
    [`${f}/properties/currency`]:
      'ISO 4217 currency of the value, when it is not the peg currency.',
    [`${f}/properties/as_of`]: 'The as-of date of the figure; null when no figure is known.',
    [`${f}/properties/source`]:
      "The id of the record's source of the figure; null when no figure is known.",
    [`${f}/properties/period`]:
      "The period a report covers (a month, a quarter), when the figure is a report's.",
    [`${f}/properties/period/properties/start`]: 'First day of the period.',
    [`${f}/properties/period/properties/end`]: 'Last day of the period.',
    [`${f}/properties/precision`]:
      'The unit the value is rounded to as published, e.g. 100000000 for tenths of a billion.',
    [`${f}/properties/stale_reason`]:
      "Why the figure is older than its kind's maximum age, when it is and that is known; null otherwise.",
    [`${f}/properties/history/items/properties/period`]:
      "The period the earlier report covered, when it is a report's.",
    [`${f}/properties/history/items/properties/period/properties/start`]:
      'First day of the period.',
    [`${f}/properties/history/items/properties/period/properties/end`]: 'Last day of the period.',
    [`${f}/properties/history/items/properties/precision`]:
      'The unit the earlier value was rounded to as published.',
  });
}

const registerEntity = (prefix: string): Record<string, string> => ({
  [`${prefix}/items/properties/lei`]: prefix.endsWith('entities')
    ? "The entity's LEI; null when ESMA's text is not LEI-shaped."
    : "The issuer's Legal Entity Identifier (ISO 17442), as ESMA gives it.",
  [`${prefix}/items/properties/name`]: "The entity's legal name, as ESMA gives it.",
});

/** Registry records per validation level, at `at` (the list's coverage, the status counts). */
const byValidationLevel = (at: string, scope: string): Record<string, string> => ({
  [at]: `Registry records per validation level, ${scope}; verified means L1 or above.`,
  [`${at}/properties/unverified`]: 'Records whose evidence supports no level.',
  [`${at}/properties/L1`]: 'Records at L1: contract confirmed on the ledger or by a dated record.',
  [`${at}/properties/L2`]:
    'Records at L2: L1, the prospectus or regulatory filings and a named custodian or transfer agent.',
  [`${at}/properties/L3`]: 'Records at L3: L2 and a CSD, registrar or transfer-agent record.',
});

/** The parent link, the access facts and the issuer's registry text: in the data files and the profile. */
const linkedFacts: Record<string, string> = {
  '/properties/parent':
    'The record this one belongs to: the fund whose share class it is, the token it wraps, or the master fund it feeds. Counts and totals count a fund once; a share class takes the fund-level facts its parent states. Null (in the data files: absent) when it has none.',
  '/properties/parent/properties/tfin': 'The TFIN of the parent record.',
  '/properties/parent/properties/relation':
    'How the record relates to its parent: share_class_of (a share class of the fund), wraps (a token wrapping the parent token) or feeder_of (a feeder of the master fund).',
  '/properties/issuer/properties/registry':
    "What an aggregator's registry text states of the issuer (DefiLlama's RWA sheet): its legal name, register number and regulator, with where it was read. An aggregator's statement, not a register extract; absent when no such text was read or it states none of them.",
  '/properties/issuer/properties/registry/properties/legal_name':
    "The issuer's legal name as that text states it; null when it states none.",
  '/properties/issuer/properties/registry/properties/register_number':
    "The issuer's company or licence register number as that text states it; null when it states none.",
  '/properties/issuer/properties/registry/properties/regulator':
    'The regulator that text names for the issuer; null when it names none.',
  '/properties/access':
    "Access and transfer facts as an aggregator states them (DefiLlama's RWA sheet), with the row they were read from (`origin`). Each fact is null where the sheet states neither yes nor no; null (in the data files: absent) when no row was read.",
  '/properties/access/properties/access_model':
    "The sheet's 'Access Model' column: permissionless, permissioned, non_transferable or custodial_only; null when it states none of them.",
  '/properties/access/properties/redeemable':
    "The sheet's 'Redeemable' column: true when ticked (the token is redeemable with its issuer), false when crossed, null when it states neither.",
  '/properties/access/properties/exchange_listed':
    "The sheet's 'CEX Listed' column: true when ticked (the token is listed on a centralised exchange), false when crossed, null when it states neither.",
  '/properties/access/properties/kyc_to_mint_or_redeem':
    "The sheet's 'KYC for mint/redeem' column: true when ticked (KYC is required to mint or redeem), false when crossed, null when it states neither.",
  '/properties/access/properties/allowlist_to_transfer_or_hold':
    "The sheet's 'KYC/Allowlisted/Whitelisted to Transfer/Hold' column: true when ticked (KYC or an allowlist is required to transfer or hold the token), false when crossed, null when it states neither.",
  '/properties/access/properties/transferable':
    "The sheet's 'Transferable' column: true when ticked (the token is transferable between holders), false when crossed, null when it states neither.",
  '/properties/access/properties/self_custody':
    "The sheet's 'Self Custody' column: true when ticked (holders may keep the token in self-custody), false when crossed, null when it states neither.",
  '/properties/access/properties/attestations':
    "The sheet's 'Attestations' column: true when ticked (the token has attestations), false when crossed, null when it states neither.",
};

const GROUPS: [owners: string[], descriptions: Record<string, string>][] = [
  [['AssetProfile', ASSET_FILE, SERIES_FILE], recordCore],
  [['AssetProfile', ASSET_FILE], { ...assetOwn }],
  [['AssetProfile', ASSET_FILE], linkedFacts],
  [
    ['AssetSummary'],
    Object.fromEntries(
      Object.entries(linkedFacts).filter(([k]) => k.startsWith('/properties/parent')),
    ),
  ],
  [['AssetProfile', 'AssetSummary', ASSET_FILE], amountFields],
  [
    ['AssetProfile', 'AssetSummary', ASSET_FILE, SERIES_FILE],
    {
      '/properties/tfin': recordCore['/properties/tfin']!,
      '/properties/short_name': recordCore['/properties/short_name']!,
      '/properties/lifecycle_status': recordCore['/properties/lifecycle_status']!,
    },
  ],
  [
    ['AssetSummary', ASSET_FILE],
    {
      '/properties/tfic':
        'TFIC code (data/codes/tfic.yaml): asset class and category, e.g. FUND.MMFD.',
    },
  ],
  [
    ['AssetProfile', SERIES_FILE],
    {
      '/properties/underlying/properties/name':
        'The name of what the series tracks or holds; null where the source gives only the ticker.',
      '/properties/underlying/properties/ticker': 'Its ticker; null when none is given.',
      '/properties/underlying/properties/isin': 'Its ISIN (ISO 6166); null when none is given.',
    },
  ],
  [
    ['AssetProfile', 'AssetSummary'],
    {
      '/properties/amount/properties/fx/properties/source':
        'The id of the ECB source of the rate (data/fx.yaml); null for USD amounts.',
    },
  ],
  [
    [ASSET_FILE, SERIES_FILE],
    {
      '/properties/identifiers': "The asset's securities and token identifiers.",
      '/properties/identifiers/properties/isin':
        'ISIN (ISO 6166); null with a reason (`null_reason`) when none is assigned or published.',
      '/properties/identifiers/properties/cusip':
        'CUSIP, 9 characters as published; null when none.',
      '/properties/identifiers/properties/figi':
        'FIGI, 12 characters starting BBG as published; null when none.',
      '/properties/identifiers/properties/dti':
        "Digital Token Identifier (ISO 24165), as ESMA's registers or the DTI Foundation give it; null or absent when none.",
      '/properties/identifiers/properties/null_reason':
        'Why `isin` is null; null when it is given.',
      '/properties/identifiers/properties/isin_origin/properties/source':
        "The id of the record's source the ISIN was read from.",
      '/properties/identifiers/properties/cusip_origin/properties/source':
        "The id of the record's source the CUSIP was read from.",
      '/properties/ledgers/items/properties/symbol':
        "The token's symbol as stated by the issuer's own record; a ledger read is compared with it (absent: the record's `short_name` is).",
      '/properties/ledgers/items/properties/decimals':
        "The token's decimals as stated by the issuer's own record, or as the first ledger read that agreed found them; a ledger read is compared with them. Absent when not stated.",
    },
  ],
  [
    [ASSET_FILE],
    {
      '/properties/kind':
        'Absent: a single asset. programme: its series (data/assets/series/) inherit its issuer, custody, MiCA status, settlement and risk factors.',
      '/properties/name': 'The asset as its issuer names it.',
      '/properties/as_of':
        'The date the record was written or last reviewed against its sources (each figure carries its own as-of date).',
      '/properties/issuer': 'Who issues the asset.',
      '/properties/issuer/properties/name': 'The issuing entity as the sources name it.',
      '/properties/issuer/properties/lei':
        "The issuer's Legal Entity Identifier (ISO 17442); null with a reason when it has none or none is published.",
      '/properties/issuer/properties/lei_null_reason': 'Why `lei` is null; null when it is given.',
      '/properties/issuer/properties/jurisdiction':
        "The issuer's domicile (ISO 3166-1 alpha-2); null with a reason when no source names it.",
      '/properties/issuer/properties/jurisdiction_null_reason':
        'Why `jurisdiction` is null; null when it is given.',
      '/properties/issuer/properties/lei_origin/properties/source':
        "The id of the record's source the LEI was read from.",
      '/properties/ledgers':
        'The ledgers the token is issued on, the ledger of first issuance first.',
      '/properties/mica': 'How MiCA treats the asset: its status code and why.',
      '/properties/custody':
        'Custody facts, by code of data/codes/custody.yaml; the custody grade is derived from them.',
      '/properties/risk_factors':
        'The declared risk factors per vector (credit, liquidity, counterparty, smart_contract, regulatory, operational): factor to value, scored by data/codes/risk-factors.yaml.',
      '/properties/amount/properties/stale_reason':
        "Why the amount is older than its kind's maximum age, when it is and that is known.",
      '/properties/amount/properties/history':
        'Previous amounts, newest first, each with its date and source.',
      '/properties/issuer/properties/jurisdiction_origin':
        "Where the domicile was read, when an importer wrote it from an aggregator's registry text; absent for a domicile written by an editor.",
      '/properties/issuer/properties/jurisdiction_origin/properties/source':
        "The id of the record's source the domicile was read from.",
      '/properties/risk_factor_notes':
        'Per risk vector and factor, a note on a factor of `risk_factors`: the reason an `unknown` factor is unknown, or the rule that set a derived factor from stated facts.',
      '/properties/risk_factor_notes/additionalProperties/additionalProperties/anyOf/0/properties/reason':
        'Why the factor is `unknown`: what no source states.',
      '/properties/risk_factor_notes/additionalProperties/additionalProperties/anyOf/1/properties/rule':
        'The rule that set the factor from stated facts (fund-units, debt-security, structured-note, credit-claim, environmental-asset, commodity-token, deposit, equity-interest, operating-history, aggregator-flags, share-class-inherits; see /docs/methodology).',
    },
  ],
  [
    [SERIES_FILE],
    {
      '/properties/description':
        "What the series is; null: the API says '<name>, a series of <programme>'.",
      '/properties/tfic':
        "TFIC code (data/codes/tfic.yaml) of the series, e.g. EQTY.TRCK; absent: the programme's.",
      '/properties/programme':
        'The TFIN of the programme the series belongs to; it inherits its issuer, custody, MiCA status, settlement and risk factors.',
      '/properties/name': 'The series as its issuer names it.',
      '/properties/as_of':
        'The date the record was written or last reviewed against its sources (each figure carries its own as-of date).',
      '/properties/ledgers':
        'The ledgers the series token is issued on, the ledger of first issuance first.',
      '/properties/underlying':
        'What the series tracks or holds: the share, fund or index by name, ticker and ISIN where known.',
    },
  ],
  [
    ['AssetProfile'],
    {
      '/properties/name': 'The asset as its issuer names it.',
      '/properties/as_of':
        'The date the record was written or last reviewed against its sources (each figure carries its own as-of date).',
      '/properties/classification': 'Asset class and TFIC category, by code and name.',
      '/properties/classification/properties/asset_class':
        'The asset class (first part of the TFIC).',
      '/properties/classification/properties/asset_class/properties/code':
        'Asset class code, e.g. FUND.',
      '/properties/classification/properties/asset_class/properties/name': 'Asset class in words.',
      '/properties/classification/properties/tfic': 'The TFIC category.',
      '/properties/classification/properties/tfic/properties/code': 'TFIC code, e.g. FUND.MMFD.',
      '/properties/classification/properties/tfic/properties/name': 'TFIC category in words.',
      '/properties/gtds_compliance':
        'The GTDS 2.1 level the record meets and each criterion checked.',
      '/properties/gtds_compliance/properties/level':
        'The highest GTDS level whose criteria are all met: GTDS-0 to GTDS-3.',
      '/properties/gtds_compliance/properties/criteria':
        'Each GTDS criterion and whether the record meets it.',
      '/properties/gtds_compliance/properties/criteria/items/properties/id':
        'The criterion (see /docs/methodology).',
      '/properties/gtds_compliance/properties/criteria/items/properties/met':
        'True when the record meets it.',
      '/properties/isin_mapping': "The asset's securities and token identifiers.",
      '/properties/isin_mapping/properties/isin':
        'ISIN (ISO 6166); null when none is assigned or published (see `null_reason`).',
      '/properties/isin_mapping/properties/cusip': 'CUSIP; null when none.',
      '/properties/isin_mapping/properties/figi': 'FIGI; null when none.',
      '/properties/isin_mapping/properties/dti':
        'Digital Token Identifier (ISO 24165); null when none is known.',
      '/properties/isin_mapping/properties/null_reason':
        'Why `isin` is null; null when it is given.',
      '/properties/issuer': "Who issues the asset (for a series: its programme's issuer).",
      '/properties/issuer/properties/name': 'The issuing entity as the sources name it.',
      '/properties/issuer/properties/lei':
        "The issuer's Legal Entity Identifier (ISO 17442); null with a reason when it has none or none is published.",
      '/properties/issuer/properties/lei_null_reason': 'Why `lei` is null; null when it is given.',
      '/properties/issuer/properties/jurisdiction':
        "The issuer's domicile (ISO 3166-1 alpha-2); null with a reason when no source names it.",
      '/properties/issuer/properties/jurisdiction_null_reason':
        'Why `jurisdiction` is null; null when it is given.',
      '/properties/ledgers':
        'The ledgers the token is issued on, the ledger of first issuance first.',
      '/properties/ledgers/items/properties/name': 'The ledger in words.',
      '/properties/ledgers/items/properties/type':
        'public_permissionless, public_permissioned or private_permissioned.',
      '/properties/mica':
        'How MiCA treats the asset: its status, the legal basis and why. A classification, not an authorisation.',
      '/properties/mica/properties/name': 'The MiCA status in words.',
      '/properties/mica/properties/legal_basis': 'The provision the status rests on.',
      '/properties/mica/properties/authorisation/properties/basis':
        'What the authorisation status rests on, in words: the register read and its date, or why no MiCA authorisation applies.',
      '/properties/mica/properties/authorisation/properties/rule':
        'The rule that derived the authorisation: always mica-register (see /docs/methodology).',
      '/properties/mica/properties/authorisation/properties/register':
        'The ESMA interim register read: art (issuers of asset-referenced tokens) or emt (issuers of e-money tokens); null when no register applies or the register is not in the dataset.',
      '/properties/mica/properties/authorisation/properties/date':
        "The issuer's date in that register: for art its authorisation under MiCA, for emt the earliest authorisation-or-notification date of its rows (`date_kind` says what it is). Null when the issuer is not authorised, no register applies, or the register gives no date.",
      '/properties/mica/properties/authorisation/properties/date_kind': `${DATE_KIND} Null when there is no date.`,
    },
  ],
  [
    ['AssetSummary'],
    {
      '/properties/name': 'The asset as its issuer names it.',
      '/properties/as_of':
        'The date the record was written or last reviewed against its sources (each figure carries its own as-of date).',
      '/properties/asset_class': 'Asset class code (first part of the TFIC), e.g. FUND.',
      '/properties/gtds_level':
        'The highest GTDS 2.1 level whose criteria the record meets: GTDS-0 to GTDS-3.',
      '/properties/issuer': 'Who issues the asset.',
      '/properties/issuer/properties/name': 'The issuing entity as the sources name it.',
      '/properties/issuer/properties/jurisdiction':
        "The issuer's domicile (ISO 3166-1 alpha-2); null when no source names it.",
      '/properties/issuer/properties/lei':
        "The issuer's Legal Entity Identifier (ISO 17442); null when it has none or none is published (the profile gives the reason). Absent in releases built before the list carried it.",
      '/properties/ledgers': 'Codes of the ledgers the token is issued on, e.g. ETH.',
      '/properties/mica_status':
        'MiCA status code (data/codes/mica-status.yaml). A classification, not an authorisation.',
      '/properties/validation_level':
        'The validation level its evidence supports: unverified, L1, L2 or L3.',
    },
  ],
  [
    ['Custody'],
    {
      '/properties/custodian':
        'The firm holding the underlying assets; null when no custodian is named.',
      '/properties/transfer_agent':
        'The transfer agent or registrar keeping the register of holders; null when none is named.',
      '/properties/model': 'Custody model code (data/codes/custody.yaml).',
      '/properties/segregation': 'Segregation code (data/codes/custody.yaml).',
      '/properties/custodian_status':
        "The custodian's regulatory status code (data/codes/custody.yaml).",
      '/properties/register':
        'Who keeps the register of ownership (code of data/codes/custody.yaml).',
      '/properties/grade':
        'The custody grade, a letter (data/codes/grades.yaml): A is the strongest.',
      '/properties/grade_points':
        "Points behind the grade, 0–100: the sum of the custody codes' points.",
    },
  ],
  [
    ['RiskVectors'],
    {
      '/properties/overall':
        'The overall score (the rounded mean of the six vectors) and its band.',
      '/properties/overall/properties/score': 'Overall risk score, 0 (least risk) to 100.',
      '/properties/overall/properties/band':
        'The risk band of the score (data/codes/grades.yaml `risk_band`).',
      '/properties/overall/properties/range/properties/min':
        'The lowest overall score the factors allow (unknown factors at their least points), 0–100.',
      '/properties/overall/properties/range/properties/max':
        'The highest overall score the factors allow (unknown factors at their most points), 0–100.',
      '/properties/vectors': 'The six risk vectors.',
      ...Object.fromEntries(
        RISK_VECTORS.flatMap((v) => {
          const at = `/properties/vectors/properties/${v}`;
          return [
            [at, `The ${v.replace('_', ' ')} vector: its score, band and the factors scored.`],
            [
              `${at}/properties/score`,
              "Vector score, 0 (least risk) to 100: the rounded mean of its factors' points.",
            ],
            [`${at}/properties/band`, 'The risk band of the score.'],
            [
              `${at}/properties/range/properties/min`,
              'The lowest score the factors allow (unknown factors at their least points), 0–100.',
            ],
            [
              `${at}/properties/range/properties/max`,
              'The highest score the factors allow (unknown factors at their most points), 0–100.',
            ],
            [
              `${at}/properties/factors`,
              'The factors scored, by name (data/codes/risk-factors.yaml).',
            ],
            [
              `${at}/properties/factors/additionalProperties/properties/value`,
              "The factor's value, declared in the record or derived.",
            ],
            [
              `${at}/properties/factors/additionalProperties/properties/points`,
              'Points for that value, 0–100 (higher is riskier).',
            ],
            [
              `${at}/properties/factors/additionalProperties/properties/derived`,
              'True when the value is derived by a rule from stated facts (e.g. operating history from the launch date), not declared.',
            ],
          ];
        }),
      ),
    },
  ],
  [
    ['AssetProfileResponse'],
    {
      '/properties/meta/properties/matched_by/properties/parameter':
        'The query parameter that matched: tfin, isin, contract or dti.',
    },
  ],
  [
    ['AssetList'],
    {
      '/properties/meta/properties/coverage':
        'What the whole registry covers (not only this page).',
      '/properties/meta/properties/coverage/properties/assets': 'Records in the registry.',
      '/properties/meta/properties/coverage/properties/products':
        'Products in the registry, each counted once: a share class, a wrapper or a feeder whose parent record is in the registry counts with its parent (programme series count as products of their own).',
      '/properties/meta/properties/coverage/properties/jurisdictions':
        "The issuers' domiciles across the registry (ISO 3166-1 alpha-2).",
      '/properties/meta/properties/coverage/properties/asset_classes':
        'Asset class codes across the registry.',
      '/properties/meta/properties/coverage/properties/ledgers':
        'Ledger codes across the registry.',
      ...byValidationLevel(
        '/properties/meta/properties/coverage/properties/by_validation_level',
        'across the whole registry (not only this page)',
      ),
      '/properties/meta/properties/next_cursor':
        'Pass as `cursor` for the next page; null on the last page.',
    },
  ],
  [
    ['AssetList', 'AssetProfileResponse', 'MicaStatusResponse', 'StablecoinsResponse'],
    {
      '/properties/meta':
        'Provenance: versions, dates and freshness of the dataset, and what this answer covers.',
    },
  ],
  [
    ['AssetList', 'MicaStatusResponse', 'StablecoinsResponse', 'SystemStatusResponse'],
    { '/properties/data': 'The answer.' },
  ],
  [
    ['Freshness'],
    {
      '/properties/median_age_days':
        'Age in days of the median figure at the dataset date; null when no figure is counted.',
      '/properties/oldest_figure/properties/as_of': 'The as-of date of that figure.',
      '/properties/oldest_figure/properties/age_days': 'Its age in days at the dataset date.',
    },
  ],
  [
    ['Meta'],
    {
      '/properties/api_version': 'The API version of the path (`v1`).',
      '/properties/registry_standard':
        'The registry data standard the records follow (version and publication).',
      '/properties/registry_standard/properties/version':
        'The version of the registry data standard.',
      '/properties/registry_standard/properties/published':
        'When that version of the standard was published.',
      '/properties/methodology':
        'The methodology audit standard the scores follow (GTDS), its version and page.',
      '/properties/methodology/properties/standard': 'The methodology standard: GTDS.',
      '/properties/methodology/properties/version': 'The version of the methodology standard.',
      '/properties/methodology/properties/url': 'The page that explains the methodology.',
    },
  ],
  [[COIN_FILE, 'Stablecoin'], coinRecord],
  [
    ['Stablecoin'],
    {
      '/properties/market_cap/properties/value_usd':
        "The market capitalisation in USD, rounded to the unit: as is for a USD peg, else at the ECB reference rate of the peg currency (`fx`) on or up to 62 days before the figure's as-of date; null when no figure is known or no such rate is held.",
      '/properties/market_cap/properties/fx':
        'The rate used for `value_usd`; null for USD and when there is none.',
      '/properties/market_cap/properties/fx/properties/rate': 'USD per unit of the currency.',
      '/properties/market_cap/properties/fx/properties/date': 'Date of the ECB reference rate.',
      '/properties/market_cap/properties/fx/properties/source':
        'The id of the ECB source of the rate (data/fx.yaml); null for USD.',
      '/properties/dominance/properties/compared':
        'True when the coin is in the dominance comparison.',
      '/properties/dominance/properties/share_of_compared_pct':
        "The coin's share of the compared coins' summed circulating supply in USD, percent 0–100; null when not compared.",
      '/properties/dominance/properties/share_within_peg_pct':
        "The coin's share within its peg currency's compared coins, percent 0–100; null when not compared.",
      '/properties/compliance_rating':
        'MiCA compliance rating A–E from the points of data/codes/stablecoin-scores.yaml: authorisation, attestation, venue restrictions, LEI. A rating, not an authorisation.',
      '/properties/compliance_rating/properties/rating': 'The rating, A (best) to E.',
      '/properties/compliance_rating/properties/meaning': 'What the rating means, in words.',
      '/properties/compliance_rating/properties/points':
        'Points summed from the components, 0–100.',
      '/properties/compliance_rating/properties/components':
        'Points per component: authorisation, attestation_frequency, attestation_standard_named, no_eu_venue_restrictions, issuer_lei_published.',
      '/properties/adoption':
        'Where the coin trades among the venues of data/venues.yaml, and the adoption score from it.',
      '/properties/adoption/properties/score':
        'Adoption score, 0–100: weighted shares of all, MiCA-authorised and institutional venues that list the coin.',
      '/properties/adoption/properties/venues_total': 'Venues in the data.',
      '/properties/adoption/properties/venues_listed': 'Venues that list the coin.',
      '/properties/adoption/properties/mica_authorised_venues_total':
        'Venues whose operator is an authorised MiCA CASP.',
      '/properties/adoption/properties/mica_authorised_venues_listed':
        'Of those, the venues that list the coin.',
      '/properties/adoption/properties/institutional_venues_total':
        'Venues offering an institutional route (otc, prime, api_direct or custody_settlement).',
      '/properties/adoption/properties/institutional_venues_listed':
        'Of those, the venues that list the coin.',
      '/properties/adoption/properties/institutional_routes':
        'Institutional routes offered by the venues that list the coin.',
      '/properties/adoption/properties/listed_on': 'Ids of the venues that list the coin.',
    },
  ],
  [
    ['StablecoinsResponse'],
    {
      '/properties/data/properties/stablecoins': 'The named stablecoins matching the query.',
      '/properties/data/properties/venues': 'The trading venues the adoption score reads.',
      '/properties/data/properties/dominance/properties/window':
        'The calendar month whose figures are compared; null when no live coin has a figure.',
      '/properties/data/properties/dominance/properties/market_total/properties/as_of':
        'The as-of date of the total: the date its source counts the market for, inside the window.',
      '/properties/data/properties/dominance/properties/window/properties/start':
        'First day of the window.',
      '/properties/data/properties/dominance/properties/window/properties/end':
        'Last day of the window (the reference date).',
      '/properties/data/properties/dominance/properties/window/properties/rule':
        'How the window is chosen, in words.',
      '/properties/data/properties/dominance/properties/coins_live': 'Live coins in the data.',
      '/properties/data/properties/dominance/properties/coins_compared':
        'Live coins with a circulating-supply figure inside the window: the coins compared.',
      '/properties/data/properties/dominance/properties/coins_without_figure':
        'Live coins with no circulating-supply figure at all.',
      '/properties/data/properties/dominance/properties/overall':
        "Each compared coin's share of the compared coins, in USD, largest first. Shares of this named set, not of the whole stablecoin market.",
      '/properties/data/properties/dominance/properties/overall/items/properties/id':
        "The coin's id.",
      '/properties/data/properties/dominance/properties/overall/items/properties/symbol':
        "The coin's ticker.",
      '/properties/data/properties/dominance/properties/overall/items/properties/peg_currency':
        'The peg currency (ISO 4217).',
      '/properties/data/properties/dominance/properties/overall/items/properties/as_of':
        'The as-of date of the circulating supply compared.',
      '/properties/data/properties/dominance/properties/overall/items/properties/source':
        "The id of the coin's source of that figure.",
      '/properties/data/properties/dominance/properties/overall/items/properties/share_pct':
        "Share of the compared coins' summed value in USD, percent 0–100.",
      '/properties/data/properties/dominance/properties/peg_groups':
        "The compared coins grouped by peg currency, with each group's share of the compared total in USD.",
      '/properties/data/properties/dominance/properties/peg_groups/items/properties/currency':
        'The peg currency (ISO 4217).',
      '/properties/data/properties/dominance/properties/peg_groups/items/properties/coins_compared':
        'Compared coins pegged to it.',
      '/properties/data/properties/dominance/properties/peg_groups/items/properties/total_usd':
        'Their summed circulating supply at par, in USD.',
      '/properties/data/properties/dominance/properties/peg_groups/items/properties/share_pct':
        "The group's share of the compared total in USD, percent 0–100.",
      '/properties/data/properties/dominance/properties/by_peg/additionalProperties/items/properties/id':
        "The coin's id.",
      '/properties/data/properties/dominance/properties/by_peg/additionalProperties/items/properties/symbol':
        "The coin's ticker.",
      '/properties/data/properties/dominance/properties/by_peg/additionalProperties/items/properties/circulating_supply':
        'Its circulating supply compared, in tokens (units of the peg currency).',
      '/properties/data/properties/dominance/properties/by_peg/additionalProperties/items/properties/as_of':
        'The as-of date of that figure.',
      '/properties/data/properties/dominance/properties/by_peg/additionalProperties/items/properties/share_pct':
        "Share within the peg currency's compared coins, percent 0–100.",
      '/properties/data/properties/dominance/properties/not_comparable':
        'Live coins left out of the comparison, with why.',
      '/properties/data/properties/dominance/properties/not_comparable/items/properties/id':
        "The coin's id.",
      '/properties/data/properties/dominance/properties/not_comparable/items/properties/symbol':
        "The coin's ticker.",
      '/properties/data/properties/dominance/properties/not_comparable/items/properties/reason':
        'Why it is not compared: no figure, or a figure outside the window.',
      '/properties/data/properties/dominance/properties/not_comparable/items/properties/circulating_supply':
        'Its newest circulating supply in tokens; null when it has none.',
      '/properties/data/properties/dominance/properties/not_comparable/items/properties/as_of':
        'The as-of date of that figure; null when it has none.',
      '/properties/data/properties/dominance/properties/excluded/items/properties/id':
        "The coin's id.",
      '/properties/data/properties/dominance/properties/excluded/items/properties/reason':
        'Why it is left out.',
      '/properties/data/properties/dominance/properties/not_live':
        'Coins that are not live (depegged, wound down or inactive): shown, and left out of totals and shares.',
      '/properties/data/properties/dominance/properties/not_live/items/properties/id':
        "The coin's id.",
      '/properties/data/properties/dominance/properties/not_live/items/properties/symbol':
        "The coin's ticker.",
      '/properties/data/properties/dominance/properties/not_live/items/properties/status':
        'depegged, wound_down or inactive.',
      '/properties/data/properties/dominance/properties/not_live/items/properties/since':
        'The date the status began; null when no source dates it.',
      '/properties/data/properties/dominance/properties/not_live/items/properties/reason':
        'What is known about the status, in words.',
      '/properties/meta/properties/count': 'Stablecoins in this answer (those matching the query).',
      '/properties/meta/properties/total': "Stablecoins in the data, before the query's filters.",
      '/properties/meta/properties/scores_version':
        'Version of the score points (data/codes/stablecoin-scores.yaml).',
    },
  ],
  [
    ['data/venues.schema.json'],
    {
      '/properties/as_of': 'The date the venue list was last reviewed against its sources.',
      '/properties/venues': 'The trading venues the adoption score reads.',
    },
  ],
  [
    ['SystemStatusResponse'],
    {
      '/properties/data/properties/uptime':
        'Availability against the SLA target over three windows.',
      '/properties/data/properties/uptime/properties/sla_target_pct':
        'The availability target, percent.',
      '/properties/data/properties/uptime/properties/windows':
        'Availability over the last 24 hours, 7 days and 30 days (each since monitoring began, when shorter).',
      ...Object.fromEntries(
        ['24h', '7d', '30d'].flatMap((w) => [
          [
            `/properties/data/properties/uptime/properties/windows/properties/${w}`,
            `Availability over the last ${w}.`,
          ],
          [
            `/properties/data/properties/uptime/properties/windows/properties/${w}/properties/minutes_observed`,
            'Whole minutes of the window observed by monitoring.',
          ],
        ]),
      ),
      '/properties/data/properties/latency': 'Latency percentiles per endpoint over three windows.',
      '/properties/data/properties/latency/items/properties/endpoint': 'The API path measured.',
      '/properties/data/properties/latency/items/properties/windows':
        'The last 5 minutes, hour and 24 hours.',
      ...Object.fromEntries(
        ['5m', '1h', '24h'].flatMap((w) => [
          [
            `/properties/data/properties/latency/items/properties/windows/properties/${w}`,
            `Latency over the last ${w}.`,
          ],
          [
            `/properties/data/properties/latency/items/properties/windows/properties/${w}/properties/count`,
            'Requests answered in the window.',
          ],
        ]),
      ),
      '/properties/data/properties/platform':
        'What the service serves: the dataset, its counts and standards.',
      '/properties/data/properties/platform/properties/dataset_version':
        'Version of the data release served.',
      '/properties/data/properties/platform/properties/dataset_as_of':
        'Date of the latest dated fact in the dataset.',
      '/properties/data/properties/platform/properties/counts': 'Records served, by kind.',
      '/properties/data/properties/platform/properties/counts/properties/assets':
        'Registry records (assets, programmes and series).',
      '/properties/data/properties/platform/properties/counts/properties/verified':
        'Registry records at validation level L1 or above.',
      ...byValidationLevel(
        '/properties/data/properties/platform/properties/counts/properties/by_validation_level',
        'across the registry served',
      ),
      '/properties/data/properties/platform/properties/counts/properties/stablecoins':
        'Named stablecoins.',
      '/properties/data/properties/platform/properties/counts/properties/venues': 'Trading venues.',
      '/properties/data/properties/platform/properties/counts/properties/member_states':
        'EU member states with a MiCA profile.',
      '/properties/data/properties/platform/properties/counts/properties/jurisdictions':
        "Jurisdictions in the MiCA regime table (EU member states, EEA EFTA states and other markets) — not the registry issuers' domiciles.",
      '/properties/data/properties/platform/properties/standards':
        'The standards the data follows.',
      '/properties/data/properties/platform/properties/standards/properties/methodology':
        'The methodology audit standard and its version, e.g. GTDS 2.1.',
      '/properties/data/properties/platform/properties/standards/properties/registry':
        'The registry data standard and its version.',
      '/properties/data/properties/observed_at': 'When the live figures were read (UTC).',
    },
  ],
  [
    [MEMBER_STATE_FILE, 'MemberStateReadiness'],
    {
      '/properties/competent_authorities':
        'The national competent authorities designated under MiCA.',
      '/properties/competent_authorities/items/properties/name': "The authority's name.",
      '/properties/competent_authorities/items/properties/short_name': 'Its usual abbreviation.',
      '/properties/competent_authorities/items/properties/role': 'What it supervises under MiCA.',
      '/properties/art_issuers':
        "ART issuers authorised in the state, counted from ESMA's register (written by npm run data:import).",
      '/properties/counts_as_of':
        'The as-of date of the counts: the date of the register they were taken from.',
      '/properties/national_measures': 'National measures implementing MiCA.',
      '/properties/national_measures/properties/adopted': 'True when the state has adopted them.',
      '/properties/national_measures/properties/instrument':
        'The law or act; null when none is adopted.',
      '/properties/national_measures/properties/date':
        'The date of adoption; null with a reason when none is adopted or none is known.',
      '/properties/national_measures/properties/date_null_reason':
        'Why `date` is null; null when it is given.',
    },
  ],
];
for (const owner of [MEMBER_STATE_FILE, 'MemberStateReadiness'])
  GROUPS.push([
    [owner],
    {
      '/properties/iso': 'The member state (ISO 3166-1 alpha-2).',
      '/properties/name': 'The member state in English.',
      '/properties/authorised_casps':
        "CASPs authorised in the state, counted from ESMA's register.",
      '/properties/emt_issuers':
        "EMT issuers authorised in the state, counted from ESMA's register.",
      '/properties/dlt_pilot_infrastructures':
        'DLT Pilot Regime market infrastructures in the state.',
      '/properties/as_of':
        'The date the record was written or last reviewed against its sources (each figure carries its own as-of date).',
    },
  ]);
GROUPS.push(
  [
    ['MemberStateReadiness'],
    {
      '/properties/transitional_period':
        "The state's Art. 143(3) transitional period for CASPs: as notified to ESMA and as in national law.",
      '/properties/transitional_period/properties/months_scored':
        "The months the readiness formula scores: national law's, else the notified value; null when neither is known.",
      '/properties/transitional_period/properties/notified': 'The period as notified to ESMA.',
      '/properties/transitional_period/properties/national':
        'The period as in force under national law.',
      '/properties/transitional_period/properties/note':
        'What else is known about the period; null when nothing.',
      '/properties/entities': "The named entities behind the counts, from ESMA's register.",
      '/properties/entities/properties/casps': 'Authorised CASPs with their home in the state.',
      '/properties/entities/properties/emt_issuers':
        'Authorised EMT issuers with their home in the state, and their white papers.',
      '/properties/entities/properties/art_issuers':
        'Authorised ART issuers with their home in the state.',
      '/properties/entities/properties/art_issuers/items/properties/lei':
        "The issuer's Legal Entity Identifier (ISO 17442).",
      '/properties/entities/properties/art_issuers/items/properties/name':
        "The issuer's legal name, as ESMA gives it.",
      '/properties/entities/properties/art_issuers/items/properties/commercial_name':
        'The trading name ESMA gives; null when it gives none.',
      '/properties/entities/properties/art_issuers/items/properties/authorised':
        'The authorisation date of the issuer, as ESMA gives it; null when it gives none.',
      '/properties/readiness':
        'MiCA readiness score, 0–100, and the components it is computed from (data/codes/readiness.yaml).',
      '/properties/readiness/properties/score':
        "Readiness score, 0–100: the sum of the components' points.",
      '/properties/readiness/properties/formula_version':
        'Version of the readiness formula (data/codes/readiness.yaml).',
      '/properties/readiness/properties/components':
        'Each component: the value scored and its points.',
      ...Object.fromEntries(
        Object.entries(READINESS_COMPONENTS).flatMap(([name, what]) => {
          const at = `/properties/readiness/properties/components/properties/${name}`;
          return [
            [at, `The component for ${what}.`],
            [`${at}/properties/value`, `The value scored: ${what}.`],
            [`${at}/properties/points`, 'Points the value earns, 0–100.'],
          ];
        }),
      ),
    },
  ],
  [
    ['MicaStatusResponse'],
    {
      '/properties/data/properties/categories':
        'The MiCA categories: EMT, ART, CASP and DLT Pilot, with their legal basis, key dates and EU counts.',
      '/properties/data/properties/member_states':
        'The EU member states matching the query, with their readiness.',
      '/properties/data/properties/register/properties/casps':
        "The version of ESMA's CASP register file read.",
      '/properties/data/properties/register/properties/emt':
        "The version of ESMA's EMT issuer register file read.",
      '/properties/data/properties/register/properties/art':
        "The version of ESMA's ART issuer register file read.",
      '/properties/data/properties/register/properties/non_compliant':
        "The version of ESMA's register of non-compliant entities read.",
      '/properties/data/properties/transitional_periods':
        "ESMA's list of transitional periods: the versions read and their sources.",
      '/properties/data/properties/transitional_periods/properties/as_of':
        'The date the transitional periods were last reviewed.',
      '/properties/data/properties/transitional_periods/properties/esma_list':
        "The versions of ESMA's list read.",
      '/properties/data/properties/coverage':
        'The jurisdictions of the MiCA regime table: EU member states, EEA EFTA states and other markets.',
      '/properties/data/properties/coverage/properties/jurisdictions':
        "How many jurisdictions the regime table covers (EU, EEA EFTA and other markets) — not the registry issuers' domiciles, which are fewer.",
      '/properties/data/properties/coverage/properties/by_group': 'The count per group.',
      '/properties/data/properties/coverage/properties/by_group/properties/eu': 'EU member states.',
      '/properties/data/properties/coverage/properties/by_group/properties/eea':
        'EEA EFTA states (Iceland, Liechtenstein, Norway).',
      '/properties/data/properties/coverage/properties/by_group/properties/other':
        'Other markets, each with its own regime.',
      '/properties/data/properties/coverage/properties/as_of':
        'The date the jurisdiction table was last reviewed.',
      '/properties/data/properties/coverage/properties/list': 'Every jurisdiction of the table.',
      '/properties/meta/properties/member_states': 'Member states in this answer.',
      '/properties/meta/properties/readiness_formula_version':
        'Version of the readiness formula (data/codes/readiness.yaml).',
    },
  ],
);
const jurisdiction: Record<string, string> = {
  iso: 'The jurisdiction (ISO 3166-1 alpha-2).',
  name: 'The jurisdiction in English.',
  group: 'eu (EU member state), eea (EEA EFTA state) or other.',
  regime: 'The regime for crypto-assets and tokenised assets, by name.',
  regulator: 'The regulator that supervises it.',
  key_dates: 'Dates of the regime: enactment, entry into force, end of transition.',
  as_of:
    'The date of the review that set the status (its sources were read then); absent for group eu.',
};
GROUPS.push(
  [
    ['Jurisdiction'],
    Object.fromEntries(Object.entries(jurisdiction).map(([k, v]) => [`/properties/${k}`, v])),
  ],
  [
    ['data/jurisdictions.schema.json'],
    {
      '/properties/as_of': 'The date the table was last reviewed.',
      '/properties/jurisdictions':
        'Every jurisdiction covered: EU member states, EEA EFTA states and other markets.',
      ...Object.fromEntries(
        Object.entries(jurisdiction).map(([k, v]) => [
          `/properties/jurisdictions/items/properties/${k}`,
          v,
        ]),
      ),
    },
  ],
  [
    ['AuthorisedCasp', 'EmtIssuer'],
    {
      '/properties/lei':
        "The entity's Legal Entity Identifier (ISO 17442); null for a CASP whose LEI ESMA gives in another form.",
      '/properties/authorised':
        'The authorisation date of the firm, as ESMA gives it (for a CASP the earliest authorisation or notification); null when it gives none.',
    },
  ],
  [
    ['AuthorisedCasp'],
    {
      '/properties/name': "The CASP's legal name, as ESMA gives it.",
      '/properties/services': 'Services authorised: MiCA Art. 3(1)(16) letters a–j.',
    },
  ],
  [
    ['EmtIssuer'],
    {
      '/properties/name': "The issuer's legal name, as ESMA gives it.",
      '/properties/commercial_name': 'The trading name ESMA gives; null when it gives none.',
      '/properties/tokens': 'Its e-money tokens, one per white paper.',
      '/properties/tokens/items/properties/dti_ffg':
        'DTI of the functionally fungible group (ISO 24165); null when ESMA gives none.',
      '/properties/tokens/items/properties/dti': 'The per-ledger DTIs of the token.',
      '/properties/tokens/items/properties/url':
        'Where the white paper is published; null when ESMA gives no URL.',
      '/properties/tokens/items/properties/notified':
        'The notification date of the white paper; null when ESMA gives none.',
    },
  ],
  [
    ['Problem'],
    {
      '/properties/type':
        'A URI reference naming the problem; it links to its explanation on /docs/errors.',
      '/properties/title':
        'A short summary of the problem, the same for every occurrence of its code.',
      '/properties/status': 'The HTTP status code.',
      '/properties/detail': 'What went wrong in this request and how to fix it.',
      '/properties/instance': 'This occurrence: `urn:uuid:` and the request id (X-Request-Id).',
      '/properties/code': 'A stable machine code for the problem, e.g. unknown_parameter.',
      '/properties/errors': 'With a parameter problem: each parameter and what is wrong with it.',
      '/properties/errors/items/properties/parameter': 'The parameter.',
      '/properties/errors/items/properties/message': 'What is wrong with it.',
      '/properties/allowed':
        'The values or parameters accepted, when the problem is one not accepted.',
      '/properties/suggestions': 'Close matches to what was sent, when there are any.',
    },
  ],
  [
    [COIN_FILE],
    {
      '/properties/market_cap/properties/history':
        'Previous values, newest first, each with its date and source.',
      '/properties/circulating_supply/properties/history':
        'Previous values, newest first, each with its date and source.',
    },
  ],
  [
    ['data/fx.schema.json'],
    {
      '/properties/rates':
        'ECB euro foreign exchange reference rates used to convert amounts to USD.',
      '/properties/rates/items/properties/base': 'The base currency (ISO 4217): EUR for ECB rates.',
      '/properties/rates/items/properties/quote': 'The quoted currency (ISO 4217).',
      '/properties/rates/items/properties/rate':
        'Units of the quoted currency per one unit of the base.',
      '/properties/rates/items/properties/date': 'The date of the reference rate.',
      '/properties/rates/items/properties/source': "The id of the file's source of the rate.",
    },
  ],
  [
    ['data/release.schema.json'],
    { '/properties/dataset_date': 'The date the release describes: every figure is aged at it.' },
  ],
  [
    ['data/mica-categories.schema.json'],
    {
      '/properties/as_of': 'The date the categories were last reviewed.',
      '/properties/categories': 'The MiCA categories: EMT, ART, CASP and DLT Pilot.',
    },
  ],
  [
    ['data/transitional-periods.schema.json'],
    {
      '/properties/as_of': 'The date the transitional periods were last reviewed.',
      '/properties/esma_list': "The versions of ESMA's list of transitional periods read.",
      '/properties/states': "Each member state's transitional period.",
      '/properties/states/items/properties/iso': 'The member state (ISO 3166-1 alpha-2).',
      '/properties/states/items/properties/notified': 'The period as notified to ESMA.',
      '/properties/states/items/properties/national': 'The period as in force under national law.',
      '/properties/states/items/properties/note':
        'What else is known about the period; null when nothing.',
    },
  ],
);
for (const [file, register, list] of [
  ['data/mica-register-casps.schema.json', 'casps', 'entities'],
  ['data/mica-register-emt.schema.json', 'emt', 'issuers'],
  ['data/mica-register-art.schema.json', 'art', 'issuers'],
  ['data/mica-register-non-compliant.schema.json', 'non-compliant', 'entities'],
] as const)
  GROUPS.push([
    [file],
    {
      '/properties/register': `Which ESMA register the file holds: ${register}.`,
      [`/properties/${list}`]: `The ${list} of ESMA's register, as imported (generated: never edited by hand).`,
      ...registerEntity(`/properties/${list}`),
    },
  ]);
GROUPS.push(
  [
    ['data/mica-register-casps.schema.json'],
    {
      '/properties/entities/items/properties/lei_as_published':
        "ESMA's text when it is not LEI-shaped (then `lei` is null): kept, never corrected.",
      '/properties/entities/items/properties/services':
        'MiCA Art. 3(1)(16) letters a–j of every active authorisation row.',
      '/properties/entities/items/properties/passported_to':
        'Host member states of the passport (ISO 3166-1 alpha-2), without the home state.',
      '/properties/entities/items/properties/authorised':
        'The authorisation date of the firm: the earliest authorisation or notification date; null when ESMA gives none.',
      '/properties/entities/items/properties/withdrawn':
        'The end date of the authorisation, when every row of the entity has one; null otherwise.',
    },
  ],
  [
    ['data/mica-register-casps.schema.json', 'data/mica-register-non-compliant.schema.json'],
    {
      '/properties/entities/items/properties/last_update':
        "The date ESMA's register last updated the entry; null when it gives none.",
    },
  ],
  [
    ['data/mica-register-emt.schema.json', 'data/mica-register-art.schema.json'],
    {
      '/properties/issuers/items/properties/authorised':
        'The authorisation date of the issuer, as ESMA gives it; null when it gives none.',
      '/properties/issuers/items/properties/authorisation_ended':
        'The date the authorisation ended; null while it holds.',
    },
  ],
  [
    ['data/mica-register-emt.schema.json'],
    {
      '/properties/issuers/items/properties/institution':
        'The kind of institution, as ESMA gives it (e.g. electronic money institution); null when it gives none.',
      '/properties/issuers/items/properties/tokens': 'Its e-money tokens, one per white paper.',
      '/properties/issuers/items/properties/tokens/items/properties/url':
        'Where the white paper is published; null when ESMA gives no URL.',
      '/properties/issuers/items/properties/tokens/items/properties/notified':
        'The notification date of the white paper; null when ESMA gives none.',
      '/properties/issuers/items/properties/tokens/items/properties/last_update':
        'The date ESMA last updated the entry; null when it gives none.',
      '/properties/issuers/items/properties/tokens/items/properties/comment':
        "ESMA's comment on the entry; null when none.",
      '/properties/issuers/items/properties/tokens/items/properties/dti_ffg':
        'DTI of the functionally fungible group (ISO 24165); null when ESMA gives none.',
      '/properties/issuers/items/properties/tokens/items/properties/dti':
        'The per-ledger DTIs of the token.',
      '/properties/issuers/items/properties/tokens/items/properties/authorised':
        "The row's own authorisation-or-notification date as ESMA gives it (an issuer's rows may differ); the register does not say which of the two it is. Null when it gives none.",
      '/properties/issuers/items/properties/tokens/items/properties/authorisation_ended':
        "The row's authorisation end date as ESMA gives it; null while it holds.",
      '/properties/issuers/items/properties/tokens/items/properties/dti/items/properties/code':
        'The DTI (ISO 24165, 9 characters).',
      '/properties/issuers/items/properties/tokens/items/properties/dti/items/properties/ledger':
        'The ledger as ESMA names it; null when it names none.',
    },
  ],
  [
    ['data/mica-register-art.schema.json'],
    {
      '/properties/issuers/items/properties/credit_institution':
        'True when the issuer is a credit institution, as ESMA gives it; null when it does not say.',
      '/properties/issuers/items/properties/white_papers': 'Its ART white papers.',
      '/properties/issuers/items/properties/white_papers/items/properties/url':
        'Where the white paper is published; null when ESMA gives no URL.',
      '/properties/issuers/items/properties/white_papers/items/properties/notified':
        'The notification date of the white paper; null when ESMA gives none.',
      '/properties/issuers/items/properties/white_papers/items/properties/last_update':
        'The date ESMA last updated the entry; null when it gives none.',
      '/properties/issuers/items/properties/white_papers/items/properties/comment':
        "ESMA's comment on the entry; null when none.",
      '/properties/issuers/items/properties/white_papers/items/properties/passported_to':
        'Host member states the white paper is passported to (ISO 3166-1 alpha-2).',
    },
  ],
  [
    ['data/mica-register-non-compliant.schema.json'],
    {
      '/properties/entities/items/properties/competent_authority':
        'The national competent authority named in the entry (the one that took the decision), as ESMA gives it.',
      '/properties/entities/items/properties/home_member_state':
        'The member state of that authority (ISO 3166-1 alpha-2), as ESMA gives it.',
      '/properties/entities/items/properties/websites': 'Websites ESMA names for the entity.',
      '/properties/entities/items/properties/infringement':
        'Whether the decision found an infringement (ESMA\'s "ae_infrigment"); null when it does not say.',
      '/properties/entities/items/properties/reason': 'The reason ESMA gives; null when none.',
      '/properties/entities/items/properties/decision_date': 'The date of the decision.',
      '/properties/entities/items/properties/comment':
        "ESMA's comment on the entry; null when none.",
    },
  ],
);
const pointsEntry = (table: string) => ({
  [`/properties/${table}`]: `Points per ${table.replace('_', ' ')} code, 0–100.`,
  [`/properties/${table}/additionalProperties/properties/points`]: 'Points of the code, 0–100.',
  [`/properties/${table}/additionalProperties/properties/meaning`]: 'What the code means.',
});
const tiers = (name: string, what: string) => ({
  [`/properties/${name}`]: `Tiers of ${what}: points for at least \`min\` of them.`,
  [`/properties/${name}/items/properties/points`]: 'Points of the tier, 0–100.',
});
GROUPS.push(
  [
    ['data/codes/custody.schema.json'],
    {
      ...pointsEntry('custody_model'),
      ...pointsEntry('segregation'),
      ...pointsEntry('custodian_status'),
      ...pointsEntry('register'),
    },
  ],
  [
    ['data/codes/grades.schema.json'],
    {
      '/properties/custody_grade': 'Custody grades by the points they need.',
      '/properties/custody_grade/items/properties/grade': 'The grade letter.',
      '/properties/custody_grade/items/properties/min_points':
        'Least custody points for the grade.',
      '/properties/custody_grade/items/properties/meaning': 'What the grade means.',
      '/properties/risk_band': 'Risk bands by the highest score they hold.',
      '/properties/risk_band/items/properties/band': 'The band name.',
      '/properties/risk_band/items/properties/max_score': 'Highest risk score, 0–100, in the band.',
    },
  ],
  [
    ['data/codes/ledgers.schema.json'],
    {
      '/properties/ledgers': 'The ledgers the records may name.',
      '/properties/ledgers/items/properties/code': 'Three-letter ledger code, e.g. ETH.',
      '/properties/ledgers/items/properties/name': 'The ledger in words.',
      '/properties/ledgers/items/properties/type':
        'public_permissionless, public_permissioned or private_permissioned.',
      '/properties/ledgers/items/properties/vm':
        'How its tokens are read: evm (answers eth_call), solana, move, stellar, xrpl, cosmos or other.',
      '/properties/ledgers/items/properties/chain_id':
        'EIP-155 chain id of an EVM chain: an RPC endpoint must report it before it is read; null or absent otherwise.',
      '/properties/ledgers/items/properties/aliases':
        "The chain's names at the captured sources, by source, e.g. { defillama: [ethereum] }.",
    },
  ],
  [
    ['data/codes/mica-status.schema.json'],
    {
      '/properties/statuses': 'The MiCA statuses a record may have.',
      '/properties/statuses/items/properties/code': 'The status code, e.g. financial_instrument.',
      '/properties/statuses/items/properties/name': 'The status in words.',
      '/properties/statuses/items/properties/legal_basis': 'The provision the status rests on.',
      '/properties/statuses/items/properties/description': 'What the status means for the asset.',
    },
  ],
  [
    ['data/codes/readiness.schema.json'],
    {
      '/properties/version': 'Version of the readiness formula.',
      '/properties/competent_authority_designated':
        'Points when a competent authority is designated, 0–100.',
      '/properties/national_measures_adopted': 'Points when national measures are adopted, 0–100.',
      '/properties/transitional_period': 'Points by the length of the transitional period.',
      '/properties/transitional_period/properties/at_most_months':
        'Points for a period of at most `months` months.',
      '/properties/transitional_period/properties/at_most_months/items/properties/months':
        'The longest period, in months (0–18), earning the points.',
      '/properties/transitional_period/properties/at_most_months/items/properties/points':
        'Points, 0–100.',
      '/properties/transitional_period/properties/unknown':
        'Points when the period is not known, 0–100.',
      ...tiers('authorised_casps', 'authorised CASPs'),
      ...tiers('emt_issuers', 'EMT issuers'),
      ...tiers('dlt_pilot_infrastructures', 'DLT Pilot infrastructures'),
    },
  ],
  [
    ['data/codes/risk-factors.schema.json'],
    { '/properties/vectors': 'Per risk vector, per factor, the points (0–100) of each value.' },
  ],
  [
    ['data/codes/source-policy.schema.json'],
    {
      '/properties/max_age_days':
        'The maximum age of a figure, in days, by kind; past it the figure is flagged stale. Null: the kind does not age.',
      '/properties/max_age_days/properties/aum':
        'Maximum age of assets under management, in days; null when it does not age.',
      '/properties/max_age_days/properties/outstanding':
        'Maximum age of an amount outstanding, in days; null when it does not age.',
      '/properties/max_age_days/properties/issued':
        'Maximum age of an amount issued, in days; null when it does not age.',
      '/properties/max_age_days/properties/market_cap':
        'Maximum age of a market capitalisation, in days; null when it does not age.',
      '/properties/max_age_days/properties/circulating_supply':
        'Maximum age of a circulating supply, in days; null when it does not age.',
      '/properties/evidence_max_age_days':
        'How long a piece of technical (L1) evidence counts towards a validation level, by method, in days at the dataset date: older evidence no longer counts, so a record cannot stay L1 on one old read.',
      '/properties/evidence_max_age_days/properties/rpc':
        'Maximum age of a ledger read (method rpc), in days.',
      '/properties/evidence_max_age_days/properties/explorer':
        "Maximum age of an explorer's page (method explorer), in days.",
      '/properties/evidence_max_age_days/properties/issuer_record':
        "Maximum age of the issuer's own record of its contracts (method issuer_record), in days.",
      '/properties/evidence_max_age_days/properties/csd_record':
        "Maximum age of a CSD's record (method csd_record), in days.",
      '/properties/refused_domains': 'Domains never accepted as a source, with why.',
      '/properties/refused_domains/items/properties/domain': 'The host name.',
      '/properties/refused_domains/items/properties/reason': 'Why it is refused.',
      '/properties/regulator_domains': "Host names of regulators: a source there is a regulator's.",
      '/properties/aggregator_domains':
        "Host names of data aggregators: a source there is an aggregator's own data.",
    },
  ],
  [
    ['data/codes/stablecoin-scores.schema.json'],
    {
      '/properties/version': 'Version of the score points.',
      '/properties/compliance_rating': 'Points of the MiCA compliance rating and its scale.',
      '/properties/compliance_rating/properties/authorisation':
        'Points by authorisation status, 0–100.',
      '/properties/compliance_rating/properties/attestation_frequency':
        'Points by attestation frequency (unknown when not known), 0–100.',
      '/properties/compliance_rating/properties/attestation_standard_named':
        'Points when the attestation names its standard, 0–100.',
      '/properties/compliance_rating/properties/no_eu_venue_restrictions':
        'Points when no EU venue restricts the coin, 0–100.',
      '/properties/compliance_rating/properties/issuer_lei_published':
        "Points when the issuer's LEI is published, 0–100.",
      '/properties/compliance_rating/properties/scale': 'The ratings by the points they need.',
      '/properties/compliance_rating/properties/scale/items/properties/rating':
        'The rating letter, A to E.',
      '/properties/compliance_rating/properties/scale/items/properties/min_points':
        'Least points for the rating.',
      '/properties/compliance_rating/properties/scale/items/properties/meaning':
        'What the rating means.',
      '/properties/adoption':
        'Weights of the adoption score and the routes that count as institutional.',
      '/properties/adoption/properties/weights': 'Weights of the three venue shares in the score.',
      '/properties/adoption/properties/weights/properties/listed':
        'Weight of the share of all venues listing the coin.',
      '/properties/adoption/properties/weights/properties/mica_authorised_listed':
        'Weight of the share of MiCA-authorised venues listing it.',
      '/properties/adoption/properties/weights/properties/institutional_listed':
        'Weight of the share of institutional venues listing it.',
      '/properties/adoption/properties/institutional_routes':
        'The routes that make a venue institutional.',
    },
  ],
  [
    ['data/codes/tfic.schema.json'],
    {
      '/properties/classes': 'The TFIC asset classes.',
      '/properties/classes/items/properties/code': 'Four-letter class code, e.g. FUND.',
      '/properties/classes/items/properties/name': 'The class in words.',
      '/properties/classes/items/properties/description': 'What the class holds.',
      '/properties/classes/items/properties/categories': 'Its categories.',
      '/properties/classes/items/properties/categories/items/properties/code':
        'Four-letter category code; with the class, e.g. FUND.MMFD.',
      '/properties/classes/items/properties/categories/items/properties/name':
        'The category in words.',
    },
  ],
);

export const FIELD_DESCRIPTIONS: Record<string, string> = Object.fromEntries(
  GROUPS.flatMap(([owners, descriptions]) =>
    owners.flatMap((owner) =>
      Object.entries(descriptions).map(([path, text]) => [`${owner}#${path}`, text] as const),
    ),
  ),
);
