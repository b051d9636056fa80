/**
 * The international calling code of each country (ISO 3166-1 alpha-2), for spec §2.3: a wallet's
 * phone number is its digits with the country prefix and no plus. Countries sharing a numbering plan
 * share its code (the North American plan's `1`, `7` for Russia and Kazakhstan, `44` for the UK and
 * the Crown Dependencies). Territories without a calling code of their own (AQ, BV, HM, TF) are left out.
 */
const CALLING_CODES: Readonly<Record<string, string>> = {
  // Africa
  DZ: '213', AO: '244', BJ: '229', BW: '267', BF: '226', BI: '257', CV: '238', CM: '237', CF: '236', TD: '235', KM: '269', CG: '242',
  CD: '243', CI: '225', DJ: '253', EG: '20', GQ: '240', ER: '291', SZ: '268', ET: '251', GA: '241', GM: '220', GH: '233', GN: '224',
  GW: '245', KE: '254', LS: '266', LR: '231', LY: '218', MG: '261', MW: '265', ML: '223', MR: '222', MU: '230', YT: '262', MA: '212',
  MZ: '258', NA: '264', NE: '227', NG: '234', RE: '262', RW: '250', SH: '290', ST: '239', SN: '221', SC: '248', SL: '232', SO: '252',
  ZA: '27', SS: '211', SD: '249', TZ: '255', TG: '228', TN: '216', UG: '256', EH: '212', ZM: '260', ZW: '263',
  // Europe
  AL: '355', AD: '376', AT: '43', BY: '375', BE: '32', BA: '387', BG: '359', HR: '385', CY: '357', CZ: '420', DK: '45', EE: '372',
  FO: '298', FI: '358', AX: '358', FR: '33', DE: '49', GI: '350', GR: '30', GG: '44', HU: '36', IS: '354', IE: '353', IM: '44',
  IT: '39', JE: '44', XK: '383', LV: '371', LI: '423', LT: '370', LU: '352', MT: '356', MD: '373', MC: '377', ME: '382', NL: '31',
  MK: '389', NO: '47', SJ: '47', PL: '48', PT: '351', RO: '40', RU: '7', SM: '378', RS: '381', SK: '421', SI: '386', ES: '34',
  SE: '46', CH: '41', UA: '380', GB: '44', VA: '39',
  // Asia and the Middle East
  AF: '93', AM: '374', AZ: '994', BH: '973', BD: '880', BT: '975', BN: '673', KH: '855', CN: '86', GE: '995', HK: '852', IN: '91',
  ID: '62', IR: '98', IQ: '964', IL: '972', JP: '81', JO: '962', KZ: '7', KW: '965', KG: '996', LA: '856', LB: '961', MO: '853',
  MY: '60', MV: '960', MN: '976', MM: '95', NP: '977', KP: '850', OM: '968', PK: '92', PS: '970', PH: '63', QA: '974', SA: '966',
  SG: '65', KR: '82', LK: '94', SY: '963', TW: '886', TJ: '992', TH: '66', TL: '670', TR: '90', TM: '993', AE: '971', UZ: '998',
  VN: '84', YE: '967', IO: '246', CC: '61', CX: '61',
  // Oceania
  AS: '1', AU: '61', CK: '682', FJ: '679', PF: '689', GU: '1', KI: '686', MH: '692', FM: '691', NR: '674', NC: '687', NZ: '64',
  NU: '683', NF: '672', MP: '1', PW: '680', PG: '675', PN: '64', WS: '685', SB: '677', TK: '690', TO: '676', TV: '688', UM: '1',
  VU: '678', WF: '681',
  // The Americas
  AI: '1', AG: '1', AR: '54', AW: '297', BS: '1', BB: '1', BZ: '501', BM: '1', BO: '591', BQ: '599', BR: '55', VG: '1', CA: '1',
  KY: '1', CL: '56', CO: '57', CR: '506', CU: '53', CW: '599', DM: '1', DO: '1', EC: '593', SV: '503', FK: '500', GF: '594',
  GL: '299', GD: '1', GP: '590', GT: '502', GY: '592', HT: '509', HN: '504', JM: '1', MQ: '596', MX: '52', MS: '1', NI: '505',
  PA: '507', PY: '595', PE: '51', PR: '1', BL: '590', KN: '1', LC: '1', MF: '590', PM: '508', VC: '1', SX: '1', SR: '597', TT: '1',
  TC: '1', US: '1', UY: '598', VE: '58', VI: '1', GS: '500',
};

/** The calling code a wallet number in `countryCode` starts with, or undefined for a code that names no country with one. */
export function callingCodeOf(countryCode: string): string | undefined {
  return Object.hasOwn(CALLING_CODES, countryCode) ? CALLING_CODES[countryCode] : undefined;
}
